//! Document combinators shared by the Candid printers.
