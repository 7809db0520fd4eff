//! Raft messages on their way from one member's raft to another's, and the
//! boxes they travel in. A message is 296 bytes and passes through many
//! hands (the server's output, the network's queue, a writer's buffer, the
//! receiver's step), so it travels boxed, and the world's queue moves only
//! a pointer. The boxes are kept and reused ([`Parcels`]): a message in a
//! steady flow allocates nothing, from raft's Ready to the peer's step.

use raft::eraftpb::Message;

/// One raft message in its box. It holds its message from [`Parcels::wrap`]
/// until [`Parcels::open`] or [`Parcels::open_into`] takes it out (the box
/// is then empty, and no `Parcel` holds it).
#[derive(Debug, Clone)]
pub struct Parcel(Box<Option<Message>>);

impl Parcel {
    /// A message in a new box (when no spare box is kept, and in tests).
    pub fn new(m: Message) -> Parcel {
        Parcel(Box::new(Some(m)))
    }
}

impl std::ops::Deref for Parcel {
    type Target = Message;

    #[inline(always)]
    fn deref(&self) -> &Message {
        match &*self.0 {
            Some(m) => m,
            None => emptied(),
        }
    }
}

/// A parcel found empty, which opening it makes impossible: one
/// place for the panic, out of line, so each read of a parcel stays small.
#[cold]
#[inline(never)]
fn emptied() -> ! {
    unreachable!("a parcel holds its message until it is opened")
}

/// The empty boxes, kept for the next messages: as many as were in flight
/// at once (at most [`Parcels::KEEP`]), so memory does not grow with a
/// burst that passed.
#[derive(Debug, Default)]
pub struct Parcels {
    // the boxes themselves are what is kept: each one goes out in a parcel
    #[allow(clippy::vec_box)]
    spare: Vec<Box<Option<Message>>>,
}

impl Parcels {
    /// The most empty boxes kept (about 300 kB): a burst with more messages
    /// in flight (a stream writer's buffer alone holds
    /// [`STREAM_BUF_MSGS`](super::rafthttp::STREAM_BUF_MSGS)) frees the
    /// rest of its boxes as they are opened.
    pub const KEEP: usize = 1024;

    /// Puts `m` in a spare box, or a new one when none is spare.
    #[inline(always)]
    pub fn wrap(&mut self, m: Message) -> Parcel {
        match self.spare.pop() {
            Some(mut b) => {
                *b = Some(m);
                Parcel(b)
            }
            None => Parcel::new(m),
        }
    }

    /// Takes the message out of its parcel and keeps the box.
    #[inline(always)]
    pub fn open(&mut self, parcel: Parcel) -> Message {
        self.open_into(parcel, |m| m)
    }

    /// Hands the message in `parcel` to `f` and keeps the box. The message
    /// goes from its box straight into `f`'s argument: one copy of its 296
    /// bytes, where [`Self::open`] makes two (into its return, then into a
    /// callee's argument). A member's step takes it so.
    #[inline(always)]
    pub fn open_into<R>(&mut self, parcel: Parcel, f: impl FnOnce(Message) -> R) -> R {
        let mut b = parcel.0;
        let r = match b.take() {
            Some(m) => f(m),
            None => emptied(),
        };
        if self.spare.len() < Self::KEEP {
            self.spare.push(b);
        }
        r
    }

    /// How many empty boxes are kept now.
    pub fn spare(&self) -> usize {
        self.spare.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn msg(to: u64) -> Message {
        Message {
            to,
            ..Default::default()
        }
    }

    #[test]
    fn an_opened_parcel_gives_its_message_and_its_box_carries_the_next() {
        let mut parcels = Parcels::default();
        let p = parcels.wrap(msg(2));
        assert_eq!(p.to, 2);
        let first_box: *const Option<Message> = &*p.0;
        assert_eq!(parcels.open(p).to, 2);
        assert_eq!(parcels.spare(), 1);
        let q = parcels.wrap(msg(3));
        assert_eq!(
            &*q.0 as *const Option<Message>, first_box,
            "the box is reused"
        );
        assert_eq!(parcels.spare(), 0);
        let to = parcels.open_into(q, |m| m.to);
        assert_eq!(to, 3);
        assert_eq!(parcels.spare(), 1, "open_into keeps the box too");
    }

    #[test]
    fn no_more_than_keep_boxes_are_kept() {
        let mut parcels = Parcels::default();
        let many: Vec<Parcel> = (0..Parcels::KEEP as u64 + 10)
            .map(|i| parcels.wrap(msg(i)))
            .collect();
        for p in many {
            parcels.open(p);
        }
        assert_eq!(parcels.spare(), Parcels::KEEP);
    }
}
