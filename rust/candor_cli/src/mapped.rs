//! Regular files mapped read-only into memory, for [`crate::input::Input`].
//!
//! Reading a file of a few megabytes into the heap copies it into as many fresh
//! pages, and each fresh page is a fault that costs microseconds on a virtual
//! machine; a mapping of the same file is served from the page cache, many pages
//! per fault. Anything that is not a non-empty regular file (a pipe, a terminal, a
//! device), or a platform without `mmap`, is read as before.

use std::fs::File;

/// A file's bytes from `start` on, mapped read-only (all `len` of them: a
/// mapping starts at a page boundary); unmapped when dropped.
pub struct Mapped {
    base: *const u8,
    len: usize,
    start: usize,
}

impl Mapped {
    /// Standard input, when it is a regular file: its bytes from the current
    /// position on, which then moves to the end (as reading it would).
    pub fn stdin(stdin: &std::io::Stdin) -> Option<Mapped> {
        #[cfg(unix)]
        {
            use std::os::fd::AsFd;
            let file = File::from(stdin.as_fd().try_clone_to_owned().ok()?);
            Mapped::file(&file)
        }
        #[cfg(not(unix))]
        {
            let _ = stdin;
            None
        }
    }

    /// `file`'s bytes from its current position on, when it is a non-empty
    /// regular file that can be mapped; the position moves to the end.
    pub fn file(file: &File) -> Option<Mapped> {
        #[cfg(unix)]
        {
            use std::io::{Seek, SeekFrom};
            use std::os::fd::AsRawFd;
            let meta = file.metadata().ok()?;
            let len = usize::try_from(meta.len()).ok()?;
            if !meta.is_file() || len == 0 {
                return None;
            }
            let mut handle = file;
            let start = usize::try_from(handle.stream_position().ok()?).ok()?;
            if start >= len {
                return None;
            }
            // SAFETY: a fresh read-only private mapping of `len` bytes of an open
            // file, at an address the kernel chooses; nothing else refers to it,
            // and the result is checked before use. (Another process truncating or
            // rewriting the file while it is mapped changes or removes the bytes
            // under us: the same caveat as every tool that maps its input.)
            let ptr = unsafe {
                libc::mmap(
                    std::ptr::null_mut(),
                    len,
                    libc::PROT_READ,
                    libc::MAP_PRIVATE,
                    file.as_raw_fd(),
                    0,
                )
            };
            if ptr == libc::MAP_FAILED {
                return None;
            }
            // Dropped (and unmapped) on the way out if the seek fails.
            let mapped = Mapped {
                base: ptr.cast::<u8>().cast_const(),
                len,
                start,
            };
            handle.seek(SeekFrom::End(0)).ok()?;
            Some(mapped)
        }
        #[cfg(not(unix))]
        {
            let _ = file;
            None
        }
    }
}

impl std::ops::Deref for Mapped {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        // SAFETY: `base` is a live read-only mapping of `len` bytes (it is unmapped
        // only by `drop`) and `start < len`; the bytes are never written through it.
        unsafe { std::slice::from_raw_parts(self.base.add(self.start), self.len - self.start) }
    }
}

impl Drop for Mapped {
    fn drop(&mut self) {
        #[cfg(unix)]
        // SAFETY: `base` and `len` are exactly what `mmap` returned and was given,
        // and no slice of it outlives `self` (they borrow it).
        unsafe {
            libc::munmap(self.base.cast_mut().cast(), self.len);
        }
    }
}
