//! Frames: while recording, the world's view at each multiple of a spacing
//! the clock passes (the page replays a long command from them).

use crate::sim::view::WorldView;
use crate::sim::world::World;

/// At most this many frames are kept while recording (see `record_frames`).
pub const MAX_FRAMES: usize = 2000;

impl World {
    /// Starts recording a view at each multiple of `every_ms` (at least 1)
    /// the clock passes, dropping frames not yet taken.
    pub fn record_frames(&mut self, every_ms: u64) {
        self.observe.frame_every_ms = Some(every_ms.max(1));
        self.observe.frames.clear();
    }

    /// Stops recording and hands over the frames: (ms, the world as it was
    /// then), ascending by ms.
    pub fn take_frames(&mut self) -> Vec<(u64, WorldView)> {
        self.observe.frame_every_ms = None;
        std::mem::take(&mut self.observe.frames)
    }

    /// The clock is about to jump from now to `t`: records the first frame
    /// boundary `b` with now < b <= t, showing the state that holds until `t`
    /// (one frame for a quiet stretch).
    #[inline(always)]
    pub(in crate::sim::world) fn record_frame_before(&mut self, t: u64) {
        // run for every event: no call unless the page records
        if let Some(every) = self.observe.frame_every_ms {
            self.record_frame_now(t, every);
        }
    }

    /// [`Self::record_frame_before`] while recording, one every `every` ms.
    fn record_frame_now(&mut self, t: u64, every: u64) {
        let now = self.now_ms();
        let b = (now / every + 1).saturating_mul(every);
        if b > t {
            return;
        }
        let mut v = self.view();
        v.now_ms = b;
        v.wall_ms = self.wall_ms() + (b - now) as i64;
        let frames = &mut self.observe.frames;
        frames.push((b, v));
        // A long command (`sleep 86400`) must not fill memory: past the cap,
        // keep every other frame and space the next ones twice as far.
        if frames.len() >= MAX_FRAMES {
            let mut i = 0;
            frames.retain(|_| {
                i += 1;
                i % 2 == 0
            });
            self.observe.frame_every_ms = Some(every.saturating_mul(2));
        }
    }
}
