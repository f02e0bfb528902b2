//! An NFT canister with the DIP721 interface that dfinity/canister-profiling measures
//! (`dapps/rust/dip721-nft`, its `.did`), written here from that interface and from what
//! each call does there: minted tokens are kept in a vector indexed by token id, each
//! with its owner, its approved spender and its metadata (parts whose key-value data is a
//! hash map); custodians may do anything, operators act for the owners that named them,
//! and every state change takes the next transaction id. It lets the same calls be sent
//! to a canister built on candid and on candor and compared with the Motoko numbers that
//! repository publishes.

use candid::{CandidType, Deserialize, Encode, Principal};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// The management canister's id, which DIP721 treats as the zero address.
const ZERO: Principal = Principal::from_slice(&[]);

#[derive(CandidType, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum ApiError {
    Unauthorized,
    InvalidTokenId,
    ZeroAddress,
    Other,
}

/// A transaction id, or why there is none.
pub type TxReceipt = Result<u128, ApiError>;

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct LogoResult {
    pub logo_type: String,
    pub data: String,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct InitArgs {
    pub custodians: Option<Vec<Principal>>,
    pub logo: LogoResult,
    pub name: String,
    pub symbol: String,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum MetadataPurpose {
    Preview,
    Rendered,
}

#[allow(clippy::enum_variant_names)]
#[derive(CandidType, Deserialize, Clone, Debug)]
pub enum MetadataVal {
    TextContent(String),
    BlobContent(Vec<u8>),
    NatContent(u128),
    Nat8Content(u8),
    Nat16Content(u16),
    Nat32Content(u32),
    Nat64Content(u64),
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct MetadataPart {
    pub purpose: MetadataPurpose,
    pub key_val_data: HashMap<String, MetadataVal>,
    pub data: Vec<u8>,
}

pub type MetadataDesc = Vec<MetadataPart>;

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct ExtendedMetadataResult {
    pub metadata_desc: MetadataDesc,
    pub token_id: u64,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub enum InterfaceId {
    Approval,
    TransactionHistory,
    Mint,
    Burn,
    TransferNotification,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub struct Minted {
    pub token_id: u64,
    pub id: u128,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub enum MintError {
    Unauthorized,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct HttpRequest {
    pub method: String,
    pub url: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct HttpResponse {
    pub status_code: u16,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

struct Token {
    owner: Principal,
    approved: Option<Principal>,
    metadata: MetadataDesc,
}

#[derive(Default)]
struct Registry {
    tokens: Vec<Token>,
    custodians: HashSet<Principal>,
    /// For each owner, the principals that may move all of its tokens.
    operators: HashMap<Principal, HashSet<Principal>>,
    logo: Option<LogoResult>,
    name: String,
    symbol: String,
    next_tx: u128,
}

impl Registry {
    fn tx(&mut self) -> u128 {
        self.next_tx += 1;
        self.next_tx - 1
    }

    fn token_mut(&mut self, id: u64) -> Result<&mut Token, ApiError> {
        let index = usize::try_from(id).map_err(|_| ApiError::InvalidTokenId)?;
        self.tokens.get_mut(index).ok_or(ApiError::InvalidTokenId)
    }

    fn token(&self, id: u64) -> Result<&Token, ApiError> {
        let index = usize::try_from(id).map_err(|_| ApiError::InvalidTokenId)?;
        self.tokens.get(index).ok_or(ApiError::InvalidTokenId)
    }

    /// Whether `who` may move or approve token `id`, which `owner` holds.
    fn may_move(&self, who: Principal, owner: Principal, approved: Option<Principal>) -> bool {
        who == owner
            || approved == Some(who)
            || self
                .operators
                .get(&owner)
                .is_some_and(|ops| ops.contains(&who))
            || self.custodians.contains(&who)
    }

    fn transfer(&mut self, who: Principal, from: Principal, to: Principal, id: u64) -> TxReceipt {
        let token = self.token(id)?;
        if !self.may_move(who, token.owner, token.approved) {
            return Err(ApiError::Unauthorized);
        }
        if token.owner != from {
            return Err(ApiError::Other);
        }
        let token = self.token_mut(id)?;
        token.owner = to;
        token.approved = None;
        Ok(self.tx())
    }

    fn if_custodian(
        &mut self,
        who: Principal,
        change: impl FnOnce(&mut Self),
    ) -> Result<(), ApiError> {
        if !self.custodians.contains(&who) {
            return Err(ApiError::Unauthorized);
        }
        change(self);
        Ok(())
    }
}

thread_local! {
    static REGISTRY: RefCell<Registry> = RefCell::new(Registry::default());
}

fn read<T>(f: impl FnOnce(&Registry) -> T) -> T {
    REGISTRY.with(|r| f(&r.borrow()))
}

fn write<T>(f: impl FnOnce(&mut Registry) -> T) -> T {
    REGISTRY.with(|r| f(&mut r.borrow_mut()))
}

fn caller() -> Principal {
    ic_cdk::api::msg_caller()
}

#[ic_cdk::init]
fn init(args: InitArgs) {
    let deployer = caller();
    write(|r| {
        r.custodians = match args.custodians {
            Some(list) => list.into_iter().collect(),
            None => HashSet::from([deployer]),
        };
        r.logo = Some(args.logo);
        r.name = args.name;
        r.symbol = args.symbol;
    });
    #[cfg(feature = "warm_up")]
    warm_up();
}

/// Fills every method's caches ahead of its calls (candor's `warm_up`; the feature
/// `warm_up` builds it in, and only a candor build has it): the calls, queries
/// above all, then start warm. A canister that keeps state across upgrades calls
/// it from `post_upgrade` too.
#[cfg(feature = "warm_up")]
fn warm_up() {
    use candid::warm_up;
    warm_up::<(Principal,), (u64,)>().unwrap();
    warm_up::<(u64,), (Result<Principal, ApiError>,)>().unwrap();
    warm_up::<(Principal, Principal, u64), (TxReceipt,)>().unwrap();
    warm_up::<(), (Vec<InterfaceId>,)>().unwrap();
    warm_up::<(), (LogoResult,)>().unwrap();
    warm_up::<(), (String,)>().unwrap();
    warm_up::<(), (u64,)>().unwrap();
    warm_up::<(u64,), (Result<MetadataDesc, ApiError>,)>().unwrap();
    warm_up::<(Principal,), (Vec<ExtendedMetadataResult>,)>().unwrap();
    warm_up::<(Principal, Principal, u64, Vec<u8>), (TxReceipt,)>().unwrap();
    warm_up::<(Principal, u64), (TxReceipt,)>().unwrap();
    warm_up::<(Principal, bool), (TxReceipt,)>().unwrap();
    warm_up::<(u64,), (TxReceipt,)>().unwrap();
    warm_up::<(Principal,), (bool,)>().unwrap();
    warm_up::<(Principal, MetadataDesc), (Result<Minted, MintError>,)>().unwrap();
    warm_up::<(String,), (Result<(), ApiError>,)>().unwrap();
    warm_up::<(Option<LogoResult>,), (Result<(), ApiError>,)>().unwrap();
    warm_up::<(Principal, bool), (Result<(), ApiError>,)>().unwrap();
    warm_up::<(HttpRequest,), (HttpResponse,)>().unwrap();
}

#[ic_cdk::query(name = "balanceOfDip721")]
fn balance_of(user: Principal) -> u64 {
    read(|r| r.tokens.iter().filter(|t| t.owner == user).count() as u64)
}

#[ic_cdk::query(name = "ownerOfDip721")]
fn owner_of(token_id: u64) -> Result<Principal, ApiError> {
    read(|r| Ok(r.token(token_id)?.owner))
}

#[ic_cdk::update(name = "transferFromDip721")]
fn transfer_from(from: Principal, to: Principal, token_id: u64) -> TxReceipt {
    let who = caller();
    write(|r| r.transfer(who, from, to, token_id))
}

#[ic_cdk::update(name = "safeTransferFromDip721")]
fn safe_transfer_from(from: Principal, to: Principal, token_id: u64) -> TxReceipt {
    if to == ZERO {
        return Err(ApiError::ZeroAddress);
    }
    transfer_from(from, to, token_id)
}

#[ic_cdk::query(name = "supportedInterfacesDip721")]
fn supported_interfaces() -> Vec<InterfaceId> {
    vec![
        InterfaceId::TransferNotification,
        InterfaceId::Burn,
        InterfaceId::Mint,
    ]
}

#[ic_cdk::query(name = "logoDip721")]
fn logo() -> LogoResult {
    read(|r| r.logo.clone()).unwrap_or_else(|| LogoResult {
        logo_type: "image/png".into(),
        data: String::new(),
    })
}

#[ic_cdk::query(name = "nameDip721")]
fn name() -> String {
    read(|r| r.name.clone())
}

#[ic_cdk::query(name = "symbolDip721")]
fn symbol() -> String {
    read(|r| r.symbol.clone())
}

#[ic_cdk::query(name = "totalSupplyDip721")]
fn total_supply() -> u64 {
    read(|r| r.tokens.len() as u64)
}

#[ic_cdk::query(name = "getMetadataDip721")]
fn get_metadata(token_id: u64) -> Result<MetadataDesc, ApiError> {
    read(|r| Ok(r.token(token_id)?.metadata.clone()))
}

#[ic_cdk::update(name = "getMetdataForUserDip721")]
fn get_metadata_for_user(user: Principal) -> Vec<ExtendedMetadataResult> {
    read(|r| {
        (0u64..)
            .zip(&r.tokens)
            .filter(|(_, t)| t.owner == user)
            .map(|(token_id, t)| ExtendedMetadataResult {
                metadata_desc: t.metadata.clone(),
                token_id,
            })
            .collect()
    })
}

/// Transfers, then tells the recipient without waiting for its answer (the transfer
/// stands whatever the recipient does).
#[ic_cdk::update(name = "transferFromNotifyDip721")]
fn transfer_from_notify(from: Principal, to: Principal, token_id: u64, data: Vec<u8>) -> TxReceipt {
    let tx = transfer_from(from, to, token_id)?;
    if let Ok(arg) = Encode!(&caller(), &from, &token_id, &data) {
        let _ = ic_cdk::call::Call::unbounded_wait(to, "onDIP721Received")
            .with_raw_args(&arg)
            .oneway();
    }
    Ok(tx)
}

#[ic_cdk::update(name = "safeTransferFromNotifyDip721")]
fn safe_transfer_from_notify(
    from: Principal,
    to: Principal,
    token_id: u64,
    data: Vec<u8>,
) -> TxReceipt {
    if to == ZERO {
        return Err(ApiError::ZeroAddress);
    }
    transfer_from_notify(from, to, token_id, data)
}

#[ic_cdk::update(name = "approveDip721")]
fn approve(user: Principal, token_id: u64) -> TxReceipt {
    let who = caller();
    write(|r| {
        let token = r.token(token_id)?;
        if !r.may_move(who, token.owner, token.approved) {
            return Err(ApiError::Unauthorized);
        }
        r.token_mut(token_id)?.approved = Some(user);
        Ok(r.tx())
    })
}

#[ic_cdk::update(name = "setApprovalForAllDip721")]
fn set_approval_for_all(operator: Principal, is_approved: bool) -> TxReceipt {
    let who = caller();
    write(|r| {
        if operator != who {
            let ops = r.operators.entry(who).or_default();
            match (operator == ZERO, is_approved) {
                // The zero address stands for everyone: it may clear, never grant.
                (true, false) => ops.clear(),
                (true, true) => {}
                (false, true) => {
                    ops.insert(operator);
                }
                (false, false) => {
                    ops.remove(&operator);
                }
            }
        }
        Ok(r.tx())
    })
}

#[ic_cdk::query(name = "getApprovedDip721")]
fn get_approved(token_id: u64) -> TxReceipt {
    // The interface types the answer as a transaction receipt; there is no approval
    // history to number, so a token that exists answers with its id.
    read(|r| r.token(token_id).map(|_| u128::from(token_id)))
}

#[ic_cdk::query(name = "isApprovedForAllDip721")]
fn is_approved_for_all(operator: Principal) -> bool {
    let who = caller();
    read(|r| {
        r.operators
            .get(&who)
            .is_some_and(|ops| ops.contains(&operator))
    })
}

#[ic_cdk::update(name = "mintDip721")]
fn mint(to: Principal, metadata: MetadataDesc) -> Result<Minted, MintError> {
    let who = caller();
    write(|r| {
        if !r.custodians.contains(&who) {
            return Err(MintError::Unauthorized);
        }
        let token_id = r.tokens.len() as u64;
        r.tokens.push(Token {
            owner: to,
            approved: None,
            metadata,
        });
        Ok(Minted {
            token_id,
            id: r.tx(),
        })
    })
}

#[ic_cdk::update(name = "burnDip721")]
fn burn(token_id: u64) -> TxReceipt {
    let who = caller();
    write(|r| {
        let token = r.token_mut(token_id)?;
        if token.owner != who {
            return Err(ApiError::Unauthorized);
        }
        token.owner = ZERO;
        Ok(r.tx())
    })
}

#[ic_cdk::update]
fn set_name(name: String) -> Result<(), ApiError> {
    let who = caller();
    write(|r| r.if_custodian(who, |r| r.name = name))
}

#[ic_cdk::update]
fn set_symbol(sym: String) -> Result<(), ApiError> {
    let who = caller();
    write(|r| r.if_custodian(who, |r| r.symbol = sym))
}

#[ic_cdk::update]
fn set_logo(logo: Option<LogoResult>) -> Result<(), ApiError> {
    let who = caller();
    write(|r| r.if_custodian(who, |r| r.logo = logo))
}

#[ic_cdk::update]
fn set_custodian(user: Principal, custodian: bool) -> Result<(), ApiError> {
    let who = caller();
    write(|r| {
        r.if_custodian(who, |r| {
            if custodian {
                r.custodians.insert(user);
            } else {
                r.custodians.remove(&user);
            }
        })
    })
}

#[ic_cdk::query]
fn is_custodian(principal: Principal) -> bool {
    read(|r| r.custodians.contains(&principal))
}

/// A plain-text summary of the collection.
#[ic_cdk::query]
fn http_request(_request: HttpRequest) -> HttpResponse {
    let body = read(|r| format!("{} ({}): {} tokens\n", r.name, r.symbol, r.tokens.len()));
    HttpResponse {
        status_code: 200,
        headers: vec![("content-type".into(), "text/plain".into())],
        body: body.into_bytes(),
    }
}

ic_cdk::export_candid!();
