//! candid's `utils`: argument tuples, the encode/decode entry points, and two helpers
//! that candid_parser and the type macros call (kept in `types::text`).

pub use crate::de::ArgumentDecoder;
pub use crate::ser::ArgumentEncoder;
pub use crate::types::text::{check_unique, pp_num_str};
pub use crate::{
    decode_args, decode_args_with_config, decode_args_with_config_debug,
    decode_args_with_decoding_and_skipping_quota, decode_args_with_decoding_quota,
    decode_args_with_skipping_quota, decode_one, decode_one_with_config,
    decode_one_with_decoding_and_skipping_quota, decode_one_with_decoding_quota,
    decode_one_with_skipping_quota, encode_args, encode_args_ref, encode_one, write_args,
    write_args_ref,
};
