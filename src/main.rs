//! The binary: on wasm32 it mounts the page; natively it is the headless runner
//! and the lesson checker (`quorum_playground::cli`).

#[cfg(target_arch = "wasm32")]
fn main() {
    quorum_playground::ui::start();
}

#[cfg(not(target_arch = "wasm32"))]
fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    std::process::exit(quorum_playground::cli::main(&args));
}
