//! A vector that keeps its first `N` elements inline and spills to the heap only
//! beyond them.
//!
//! A typical message has a handful of type table entries, fields and arguments;
//! keeping those inline means decoding allocates nothing but the values it returns
//! (the allocation test pins this). Large tables spill once and cost what a `Vec`
//! costs.

#[derive(Clone, Debug)]
pub(crate) struct InlineVec<T: Copy + Default, const N: usize> {
    len: usize,
    inline: [T; N],
    heap: Vec<T>,
}

impl<T: Copy + Default, const N: usize> Default for InlineVec<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> InlineVec<T, N> {
    pub(crate) fn new() -> Self {
        InlineVec {
            len: 0,
            inline: [T::default(); N],
            heap: Vec::new(),
        }
    }

    #[inline]
    pub(crate) fn len(&self) -> usize {
        self.len
    }

    #[inline]
    pub(crate) fn push(&mut self, v: T) {
        if self.len < N && self.heap.is_empty() {
            if let Some(slot) = self.inline.get_mut(self.len) {
                *slot = v;
            }
        } else {
            if self.heap.is_empty() {
                self.heap.reserve(N * 2);
                self.heap.extend_from_slice(&self.inline);
            }
            self.heap.push(v);
        }
        self.len += 1;
    }

    #[inline(always)]
    pub(crate) fn as_slice(&self) -> &[T] {
        if self.heap.is_empty() {
            self.inline.get(..self.len).unwrap_or(&[])
        } else {
            &self.heap
        }
    }

    #[inline]
    pub(crate) fn as_mut_slice(&mut self) -> &mut [T] {
        if self.heap.is_empty() {
            self.inline.get_mut(..self.len).unwrap_or(&mut [])
        } else {
            &mut self.heap
        }
    }

    #[inline(always)]
    pub(crate) fn get(&self, i: usize) -> Option<&T> {
        self.as_slice().get(i)
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, i: usize) -> Option<&mut T> {
        self.as_mut_slice().get_mut(i)
    }

    pub(crate) fn truncate(&mut self, len: usize) {
        if len < self.len {
            if !self.heap.is_empty() {
                self.heap.truncate(len);
            }
            self.len = len;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::InlineVec;

    #[test]
    fn spills_past_inline_capacity() {
        let mut s: InlineVec<u32, 4> = InlineVec::new();
        for i in 0..10 {
            s.push(i);
            assert_eq!(s.len(), i as usize + 1);
            assert_eq!(s.as_slice(), (0..=i).collect::<Vec<_>>().as_slice());
        }
        s.truncate(3);
        assert_eq!(s.as_slice(), &[0, 1, 2]);
        *s.get_mut(1).unwrap() = 7;
        assert_eq!(s.get(1), Some(&7));
    }
}
