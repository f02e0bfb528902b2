//! The decode state lent to one decoder ([`LentState`]): one pointer, given back
//! to the header cache or the thread's spare when the decoder is dropped.

use super::state::{DecodeState, Idle};
use crate::wire::reader::Reader;
use std::ptr::NonNull;

/// A decode state lent to one decoder, boxed. It goes back when the decoder is
/// dropped: to the header cache entry that keeps its header (its `lease`), or to
/// the thread's spare.
///
/// The whole state is lent, not rebuilt: what it knows about the header (the
/// wire types, the subtype answers, the checked pairs) is a function of the
/// header's bytes and the thread's interned expected types, so the next message of
/// the same header starts from it, and a message only resets what is its own (the
/// input, the quotas, the depth: [`DecodeState::begin`]). The decoder holds one
/// pointer; values read the state through the `&mut` their frames already carry.
///
/// The state holds the input's lifetime, but this holder does not: a decoder has no
/// destructor that needs the input alive, and may be dropped after it, as candid's
/// may (`Decode!(&bytes, T)` as the last expression of a function whose local
/// `bytes` it reads is a temporary dropped after that local before edition 2024).
/// Giving the state back overwrites its reader without reading it.
pub(crate) struct LentState {
    state: NonNull<Idle>,
}

impl LentState {
    #[inline(always)]
    pub(super) fn new(state: Box<Idle>) -> Self {
        LentState {
            state: NonNull::from(Box::leak(state)),
        }
    }

    /// The state, for a decoder over an input of lifetime `'de`.
    ///
    /// # Safety
    ///
    /// The caller holds that input for as long as the returned borrow lives.
    #[inline(always)]
    pub(super) unsafe fn get<'de>(&self) -> &DecodeState<'de> {
        // SAFETY: `state` is the box `new` took apart, owned by this holder alone;
        // only its reader names a lifetime, and the caller keeps that input alive.
        unsafe { &*self.state.as_ptr().cast::<DecodeState<'de>>() }
    }

    /// The state, to change ([`get`](Self::get)).
    ///
    /// # Safety
    ///
    /// As for [`get`](Self::get).
    #[inline(always)]
    pub(super) unsafe fn get_mut<'de>(&mut self) -> &mut DecodeState<'de> {
        // SAFETY: as in `get`, with this holder borrowed exclusively.
        unsafe { &mut *self.state.as_ptr().cast::<DecodeState<'de>>() }
    }
}

impl Drop for LentState {
    fn drop(&mut self) {
        let p = self.state.as_ptr();
        // SAFETY: `p` is the box `new` took apart, and this holder is its only
        // owner: the reader (which may borrow an input that is gone) is overwritten
        // in place, never read, and the box is made whole again to be given back.
        let state = unsafe {
            std::ptr::addr_of_mut!((*p).reader).write(Reader::new(&[], 0));
            Box::from_raw(p)
        };
        super::header_cache::give_back(state);
    }
}
