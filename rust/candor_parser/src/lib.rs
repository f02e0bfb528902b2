//! Candid text values and `.did` interfaces (in progress).
