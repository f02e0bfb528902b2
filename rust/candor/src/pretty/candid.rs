//! Printing types, services and whole `.did` files.
