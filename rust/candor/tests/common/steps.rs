//! Decodes as steps of a sequence, each rendered as text (the value with the
//! quotas left, or the error), for tests that run one sequence under two settings
//! and compare the renderings.

use candor::{CandidType, DecoderConfig, IDLArgs};

/// One step: a decode of some bytes, rendered with its outcome.
pub type Step<'a> = Box<dyn Fn() -> String + 'a>;

/// Decodes `bytes` as the argument tuple `T` under `config`: the values and the
/// quotas left, or the error text.
pub fn args<'a, T>(bytes: &'a [u8], config: DecoderConfig) -> Step<'a>
where
    T: for<'de> candor::de::ArgumentDecoder<'de> + std::fmt::Debug,
{
    Box::new(
        move || match candor::decode_args_with_config_debug::<T>(bytes, &config) {
            Ok((v, cost)) => format!(
                "{v:?} decoding {:?} skipping {:?}",
                cost.decoding_quota, cost.skipping_quota
            ),
            Err(e) => format!("error: {e}"),
        },
    )
}

/// Decodes `bytes` at their wire types (`IDLArgs`).
pub fn untyped(bytes: &[u8]) -> Step<'_> {
    Box::new(move || match IDLArgs::from_bytes(bytes) {
        Ok(args) => args.to_string(),
        Err(e) => format!("error: {e}"),
    })
}

/// Decodes `bytes` at `T`'s type given at run time (`IDLArgs` with a private
/// expected arena).
pub fn with_type<T: CandidType>(bytes: &[u8]) -> Step<'_> {
    Box::new(move || {
        let types = [T::ty()];
        match IDLArgs::from_bytes_with_types(bytes, &candor::TypeEnv::new(), &types) {
            Ok(args) => args.to_string(),
            Err(e) => format!("error: {e}"),
        }
    })
}

/// A config with these decoding and skipping quotas.
pub fn quota(decoding: usize, skipping: usize) -> DecoderConfig {
    let mut c = DecoderConfig::new();
    c.set_decoding_quota(decoding).set_skipping_quota(skipping);
    c
}
