//! Realistic canister payload types for the workloads, modelled on public Internet Computer
//! interfaces (NNS governance listings, ledger-style records and results) but written for this
//! suite. They derive through `crate::lib`, so they serialize with whichever library is measured.

use crate::lib::{CandidType, Deserialize, Int, Principal};
use serde_bytes::ByteBuf;
use std::collections::BTreeMap;

fn principal(i: u64) -> Principal {
    Principal::from_slice(&i.to_be_bytes())
}

/// A cons list through `opt`: `type list = opt record { head: int; tail: list }`.
#[derive(CandidType, Deserialize)]
pub struct ConsCell {
    pub head: Int,
    pub tail: Option<Box<ConsCell>>,
}

/// A cons list through a variant: `type chain = variant { Nil; Cons: record { int; chain } }`.
#[derive(CandidType, Deserialize)]
pub enum Chain {
    Nil,
    Cons(Int, Box<Chain>),
}

// ---------------------------------------------------------------- nns_list_proposal

#[derive(CandidType, Deserialize, Clone)]
pub struct Id {
    pub id: u64,
}

#[derive(CandidType, Deserialize, Clone)]
pub struct Fault {
    pub error_type: i32,
    pub error_message: String,
}

#[derive(CandidType, Deserialize, Clone)]
pub struct Ballot {
    pub vote: i32,
    pub voting_power: u64,
}

#[derive(CandidType, Deserialize, Clone)]
pub struct Tally {
    pub no: u64,
    pub yes: u64,
    pub total: u64,
    pub timestamp_seconds: u64,
}

#[derive(CandidType, Deserialize, Clone)]
pub struct SwapInfo {
    pub swap_status: Option<i32>,
    pub participants: Vec<Principal>,
}

#[derive(CandidType, Deserialize, Clone)]
pub enum Action {
    Motion { motion_text: String },
    Transfer { to: Principal, amount_e8s: u64 },
    Upgrade(ByteBuf),
}

#[derive(CandidType, Deserialize, Clone)]
pub struct Proposal {
    pub url: String,
    pub title: Option<String>,
    pub summary: String,
    pub action: Option<Action>,
}

/// 17 fields, as governance's proposal listing returns; the bench leaves most of them empty.
#[derive(CandidType, Deserialize, Clone)]
pub struct ProposalSummary {
    pub id: Option<Id>,
    pub status: i32,
    pub topic: i32,
    pub failure_reason: Option<Fault>,
    pub ballots: Vec<(u64, Ballot)>,
    pub proposal_timestamp_seconds: u64,
    pub reward_event_round: u64,
    pub deadline_timestamp_seconds: Option<u64>,
    pub failed_timestamp_seconds: u64,
    pub reject_cost_e8s: u64,
    pub derived_proposal_information: Option<SwapInfo>,
    pub latest_tally: Option<Tally>,
    pub reward_status: i32,
    pub decided_timestamp_seconds: u64,
    pub proposal: Option<Box<Proposal>>,
    pub proposer: Option<Id>,
    pub executed_timestamp_seconds: u64,
}

impl ProposalSummary {
    pub fn mostly_empty() -> Self {
        ProposalSummary {
            id: None,
            status: 7,
            topic: 4,
            failure_reason: None,
            ballots: vec![],
            proposal_timestamp_seconds: 1_700_000_000,
            reward_event_round: 900,
            deadline_timestamp_seconds: Some(1_700_345_600),
            failed_timestamp_seconds: 0,
            reject_cost_e8s: 2_500_000_000,
            derived_proposal_information: None,
            latest_tally: None,
            reward_status: 1,
            decided_timestamp_seconds: 1_700_100_000,
            proposal: None,
            proposer: None,
            executed_timestamp_seconds: 1_700_100_001,
        }
    }
}

#[derive(CandidType, Deserialize)]
pub struct ProposalPage {
    pub proposal_info: Vec<ProposalSummary>,
}

// ---------------------------------------------------------------- nns_list_neurons

#[derive(CandidType, Deserialize, Clone)]
pub struct BallotRef {
    pub vote: i32,
    pub proposal_id: Option<Id>,
}

#[derive(CandidType, Deserialize, Clone)]
pub struct Followees {
    pub followees: Vec<Id>,
}

#[derive(CandidType, Deserialize, Clone)]
pub enum DissolveState {
    DissolveDelaySeconds(u64),
    WhenDissolvedTimestampSeconds(u64),
}

#[derive(CandidType, Deserialize, Clone)]
pub struct StakeTransfer {
    pub to_subaccount: ByteBuf,
    pub neuron_stake_e8s: u64,
    pub from: Option<Principal>,
    pub memo: u64,
    pub from_subaccount: ByteBuf,
    pub transfer_timestamp: u64,
    pub block_height: u64,
}

#[derive(CandidType, Deserialize, Clone)]
pub struct KnownNeuron {
    pub name: String,
    pub description: Option<String>,
}

/// 21 fields, every one populated, with nested vectors, a map and options.
#[derive(CandidType, Deserialize)]
pub struct Neuron {
    pub id: Option<Id>,
    pub staked_maturity_e8s_equivalent: Option<u64>,
    pub controller: Option<Principal>,
    pub recent_ballots: Vec<BallotRef>,
    pub kyc_verified: bool,
    pub neuron_type: Option<i32>,
    pub not_for_profit: bool,
    pub maturity_e8s_equivalent: u64,
    pub cached_neuron_stake_e8s: u64,
    pub created_timestamp_seconds: u64,
    pub auto_stake_maturity: Option<bool>,
    pub aging_since_timestamp_seconds: u64,
    pub hot_keys: Vec<Principal>,
    pub account: ByteBuf,
    pub joined_community_fund_timestamp_seconds: Option<u64>,
    pub dissolve_state: Option<DissolveState>,
    pub followees: BTreeMap<i32, Followees>,
    pub neuron_fees_e8s: u64,
    pub transfer: Option<StakeTransfer>,
    pub known_neuron_data: Option<KnownNeuron>,
    pub spawn_at_timestamp_seconds: Option<u64>,
}

#[derive(CandidType, Deserialize)]
pub struct NeuronInfo {
    pub dissolve_delay_seconds: u64,
    pub recent_ballots: Vec<BallotRef>,
    pub neuron_type: Option<i32>,
    pub created_timestamp_seconds: u64,
    pub state: i32,
    pub stake_e8s: u64,
    pub joined_community_fund_timestamp_seconds: Option<u64>,
    pub retrieved_at_timestamp_seconds: u64,
    pub known_neuron_data: Option<KnownNeuron>,
    pub voting_power: u64,
    pub age_seconds: u64,
}

#[derive(CandidType, Deserialize)]
pub struct NeuronPage {
    pub neuron_infos: Vec<(u64, NeuronInfo)>,
    pub full_neurons: Vec<Neuron>,
}

fn ballots(n: u64) -> Vec<BallotRef> {
    (0..n)
        .map(|j| BallotRef {
            vote: 1 + (j % 2) as i32,
            proposal_id: Some(Id { id: 100_000 + j }),
        })
        .collect()
}

impl NeuronPage {
    pub fn populated(n: u64) -> Self {
        let neuron = |i: u64| Neuron {
            id: Some(Id { id: i }),
            staked_maturity_e8s_equivalent: Some(1_000_000 + i),
            controller: Some(principal(i)),
            recent_ballots: ballots(100),
            kyc_verified: true,
            neuron_type: Some(1),
            not_for_profit: i % 7 == 0,
            maturity_e8s_equivalent: 500_000,
            cached_neuron_stake_e8s: 10_000_000_000,
            created_timestamp_seconds: 1_700_000_000 + i,
            auto_stake_maturity: Some(true),
            aging_since_timestamp_seconds: 1_700_000_000,
            hot_keys: (0..5)
                .map(|j| Principal::from_slice(&[j as u8 + 1; 10]))
                .collect(),
            account: ByteBuf::from(vec![i as u8; 32]),
            joined_community_fund_timestamp_seconds: Some(1_700_000_000),
            dissolve_state: Some(DissolveState::DissolveDelaySeconds(15_778_800)),
            followees: (0..10)
                .map(|topic| {
                    let followees = (0..5).map(|f| Id { id: 1_000 + f }).collect();
                    (topic, Followees { followees })
                })
                .collect(),
            neuron_fees_e8s: 10_000,
            transfer: Some(StakeTransfer {
                to_subaccount: ByteBuf::from(vec![0u8; 32]),
                neuron_stake_e8s: 10_000_000_000,
                from: Some(Principal::from_slice(&[9u8; 10])),
                memo: 42 + i,
                from_subaccount: ByteBuf::from(vec![1u8; 32]),
                transfer_timestamp: 1_700_000_000,
                block_height: 1_000_000 + i,
            }),
            known_neuron_data: Some(KnownNeuron {
                name: format!("neuron-{i}"),
                description: Some(format!("Known neuron number {i}")),
            }),
            spawn_at_timestamp_seconds: None,
        };
        let info = |i: u64| NeuronInfo {
            dissolve_delay_seconds: 15_778_800,
            recent_ballots: ballots(100),
            neuron_type: Some(1),
            created_timestamp_seconds: 1_700_000_000,
            state: 1,
            stake_e8s: 10_000_000_000,
            joined_community_fund_timestamp_seconds: Some(1_700_000_000),
            retrieved_at_timestamp_seconds: 1_700_000_000 + i,
            known_neuron_data: Some(KnownNeuron {
                name: format!("neuron-{i}"),
                description: None,
            }),
            voting_power: 20_000_000_000,
            age_seconds: 31_557_600,
        };
        NeuronPage {
            neuron_infos: (0..n).map(|i| (i, info(i))).collect(),
            full_neurons: (0..n).map(neuron).collect(),
        }
    }
}

// ---------------------------------------------------------------- subtype_decode

/// Today's record: 16 fields.
#[derive(CandidType)]
pub struct LedgerEntryV2 {
    pub id: u64,
    pub name: String,
    pub balance: u64,
    pub active: bool,
    pub score: f64,
    pub owner: Principal,
    pub data: ByteBuf,
    pub count: u32,
    pub label: String,
    pub epoch: u64,
    pub note: Option<String>,
    pub tags: Vec<u8>,
    pub frozen: bool,
    pub weight: f64,
    pub delegate: Principal,
    pub revision: u32,
}

impl LedgerEntryV2 {
    pub fn sample(i: u64) -> Self {
        LedgerEntryV2 {
            id: i,
            name: format!("entry-{i}"),
            balance: i * 1000,
            active: i % 2 == 0,
            score: i as f64 * 1.5,
            owner: principal(i),
            data: ByteBuf::from(vec![i as u8; 64]),
            count: i as u32,
            label: format!("label-{i}"),
            epoch: i * 42,
            note: Some(format!("note-{i}")),
            tags: vec![i as u8; 16],
            frozen: i % 3 == 0,
            weight: i as f64 * 2.7,
            delegate: principal(i + 1000),
            revision: i as u32 * 7,
        }
    }
}

/// The same record as an older client knows it: 4 of the 16 fields.
#[derive(CandidType, Deserialize)]
pub struct LedgerEntryV1 {
    pub id: u64,
    pub name: String,
    pub balance: u64,
    pub active: bool,
}

// ---------------------------------------------------------------- result_variant

#[derive(CandidType, Deserialize)]
pub struct Wallet {
    pub owner: Principal,
    pub available: i128,
    pub pending: i128,
    pub settled: i128,
    pub updated_at: u64,
    pub credit_limit: u128,
    pub label: String,
}

#[derive(CandidType, Deserialize)]
pub enum WalletError {
    Unauthorized(Principal),
    NotFound,
    InsufficientFunds { needed: u128, available: i128 },
    Internal(String),
}

#[derive(CandidType, Deserialize)]
pub enum WalletResult {
    Ok(Wallet),
    Err(WalletError),
}

impl WalletResult {
    pub fn sample(i: u64) -> Self {
        match i % 4 {
            0 => WalletResult::Err(WalletError::InsufficientFunds {
                needed: i as u128 * 1000,
                available: i as i128 * 100,
            }),
            1 => WalletResult::Err(WalletError::Unauthorized(principal(i))),
            _ => WalletResult::Ok(Wallet {
                owner: principal(i),
                available: i as i128 * 1_000_000,
                pending: 0,
                settled: i as i128 * 999_000,
                updated_at: 1_700_000_000 + i,
                credit_limit: 10_000_000_000,
                label: format!("wallet-{i}"),
            }),
        }
    }
}

// ---------------------------------------------------------------- wide_record

/// 35 fields: counters, sums and ten bucket vectors of (nat64, float64) or (nat64, nat64).
#[derive(CandidType, Deserialize, Clone)]
pub struct StakingStats {
    pub total_maturity: u64,
    pub locked_buckets: Vec<(u64, f64)>,
    pub dissolving_maturity_sum: u64,
    pub collectable_count: u64,
    pub dissolving_maturity_buckets: Vec<(u64, f64)>,
    pub invalid_stake_count: u64,
    pub locked_count_buckets: Vec<(u64, u64)>,
    pub ect_count: u64,
    pub total_supply: u64,
    pub short_delay_count: u64,
    pub dissolved_count: u64,
    pub fund_maturity: u64,
    pub seed_staked: u64,
    pub ect_staked_maturity: u64,
    pub total_staked: u64,
    pub locked_count: u64,
    pub total_locked: u64,
    pub fund_active: u64,
    pub staked_maturity: u64,
    pub locked_buckets_ect: Vec<(u64, f64)>,
    pub ect_staked: u64,
    pub locked_maturity_sum: u64,
    pub dissolved_e8s: u64,
    pub dissolving_buckets_seed: Vec<(u64, f64)>,
    pub short_delay_e8s: u64,
    pub locked_maturity_buckets: Vec<(u64, f64)>,
    pub dissolving_count_buckets: Vec<(u64, u64)>,
    pub dissolving_buckets_ect: Vec<(u64, f64)>,
    pub dissolving_count: u64,
    pub dissolving_buckets: Vec<(u64, f64)>,
    pub seed_staked_maturity: u64,
    pub fund_staked: u64,
    pub locked_buckets_seed: Vec<(u64, f64)>,
    pub timestamp_seconds: u64,
    pub seed_count: u64,
}

impl StakingStats {
    pub fn sample() -> Self {
        let b: Vec<(u64, f64)> = (0..20).map(|i| (i * 15_778_800, i as f64 * 1e6)).collect();
        let c: Vec<(u64, u64)> = (0..20).map(|i| (i * 15_778_800, i * 100)).collect();
        StakingStats {
            total_maturity: 50_000_000_000_000,
            locked_buckets: b.clone(),
            dissolving_maturity_sum: 1_000_000_000,
            collectable_count: 42,
            dissolving_maturity_buckets: b.clone(),
            invalid_stake_count: 3,
            locked_count_buckets: c.clone(),
            ect_count: 100,
            total_supply: 500_000_000_000_000_000,
            short_delay_count: 5_000,
            dissolved_count: 10_000,
            fund_maturity: 1_000_000_000_000,
            seed_staked: 2_000_000_000_000,
            ect_staked_maturity: 500_000_000,
            total_staked: 100_000_000_000_000_000,
            locked_count: 30_000,
            total_locked: 80_000_000_000_000_000,
            fund_active: 200,
            staked_maturity: 5_000_000_000_000,
            locked_buckets_ect: b.clone(),
            ect_staked: 3_000_000_000_000,
            locked_maturity_sum: 2_000_000_000,
            dissolved_e8s: 500_000_000_000,
            dissolving_buckets_seed: b.clone(),
            short_delay_e8s: 1_000_000_000_000,
            locked_maturity_buckets: b.clone(),
            dissolving_count_buckets: c,
            dissolving_buckets_ect: b.clone(),
            dissolving_count: 15_000,
            dissolving_buckets: b.clone(),
            seed_staked_maturity: 700_000_000,
            fund_staked: 5_000_000_000_000,
            locked_buckets_seed: b,
            timestamp_seconds: 1_700_000_000,
            seed_count: 500,
        }
    }
}

// ---------------------------------------------------------------- large_variant

/// 21 cases mixing unit, tuple and record payloads.
#[derive(CandidType, Deserialize)]
pub enum TokenOp {
    Transfer {
        from: Principal,
        to: Principal,
        amount: u64,
        memo: Option<u64>,
    },
    Approve {
        spender: Principal,
        amount: u64,
        expires_at: Option<u64>,
    },
    Burn {
        amount: u64,
    },
    Mint {
        to: Principal,
        amount: u64,
    },
    SetFee(u64),
    SetAdmin(Principal),
    Pause,
    Unpause,
    Upgrade(ByteBuf),
    AddMinter(Principal),
    RemoveMinter(Principal),
    SetName(String),
    SetSymbol(String),
    SetLogo(String),
    SetMetadata {
        key: String,
        value: String,
    },
    Propose {
        title: String,
        summary: String,
        url: String,
    },
    Vote {
        proposal_id: u64,
        accept: bool,
    },
    Execute(u64),
    Reject(u64),
    Stake {
        amount: u64,
        dissolve_delay: u64,
    },
    Disburse {
        neuron_id: u64,
        to: Principal,
        amount: Option<u64>,
    },
}

impl TokenOp {
    pub fn sample(i: u64) -> Self {
        let p = principal(i);
        match i % 21 {
            0 => TokenOp::Transfer {
                from: p,
                to: p,
                amount: i * 100,
                memo: Some(42),
            },
            1 => TokenOp::Approve {
                spender: p,
                amount: i,
                expires_at: Some(1_700_000_000),
            },
            2 => TokenOp::Burn { amount: i * 50 },
            3 => TokenOp::Mint {
                to: p,
                amount: i * 1000,
            },
            4 => TokenOp::SetFee(i),
            5 => TokenOp::SetAdmin(p),
            6 => TokenOp::Pause,
            7 => TokenOp::Unpause,
            8 => TokenOp::Upgrade(ByteBuf::from(vec![i as u8; 32])),
            9 => TokenOp::AddMinter(p),
            10 => TokenOp::RemoveMinter(p),
            11 => TokenOp::SetName(format!("name-{i}")),
            12 => TokenOp::SetSymbol(format!("SYM{i}")),
            13 => TokenOp::SetLogo(format!("https://example.org/logo-{i}.png")),
            14 => TokenOp::SetMetadata {
                key: format!("key-{i}"),
                value: format!("value-{i}"),
            },
            15 => TokenOp::Propose {
                title: format!("Proposal {i}"),
                summary: format!("Summary of proposal {i}"),
                url: format!("https://example.org/{i}"),
            },
            16 => TokenOp::Vote {
                proposal_id: i,
                accept: i % 2 == 0,
            },
            17 => TokenOp::Execute(i),
            18 => TokenOp::Reject(i),
            19 => TokenOp::Stake {
                amount: i * 100_000_000,
                dissolve_delay: 15_778_800,
            },
            _ => TokenOp::Disburse {
                neuron_id: i,
                to: p,
                amount: Some(i * 100),
            },
        }
    }
}

// ---------------------------------------------------------------- double_option

/// Three-state updates: `None` keeps, `Some(None)` clears, `Some(Some(x))` sets.
#[derive(CandidType, Deserialize)]
pub struct SettingsPatch {
    pub target_balance: Option<Option<i128>>,
    pub expires_at: Option<Option<u64>>,
    pub spending_limit: Option<Option<u128>>,
    pub description: Option<Option<String>>,
    pub account: Principal,
}

impl SettingsPatch {
    pub fn sample(i: u64) -> Self {
        let account = principal(i);
        match i % 3 {
            0 => SettingsPatch {
                target_balance: None,
                expires_at: None,
                spending_limit: None,
                description: None,
                account,
            },
            1 => SettingsPatch {
                target_balance: Some(None),
                expires_at: Some(None),
                spending_limit: Some(None),
                description: Some(None),
                account,
            },
            _ => SettingsPatch {
                target_balance: Some(Some(i as i128 * 1_000_000)),
                expires_at: Some(Some(1_700_000_000 + i)),
                spending_limit: Some(Some(i as u128 * 500)),
                description: Some(Some(format!("patch-{i}"))),
                account,
            },
        }
    }
}

// ---------------------------------------------------------------- nns

/// The types of `governance.did` that `manage_neuron`'s argument reaches, mirrored field by
/// field (a variant decodes only into an enum that has all of its cases).
pub mod gov {
    use crate::lib::{CandidType, Deserialize, Principal};
    use serde_bytes::ByteBuf;

    /// `record {}`, the payload of several commands.
    #[derive(CandidType, Deserialize)]
    pub struct EmptyRecord {}

    #[derive(CandidType, Deserialize)]
    pub struct NeuronId {
        pub id: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct ProposalId {
        pub id: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct AccountIdentifier {
        pub hash: ByteBuf,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Tokens {
        pub e8s: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Percentage {
        pub basis_points: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Duration {
        pub seconds: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct GlobalTimeOfDay {
        pub seconds_after_utc_midnight: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Countries {
        pub iso_codes: Vec<String>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Image {
        pub base64_encoding: Option<String>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Canister {
        pub id: Option<Principal>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Principals {
        pub principals: Vec<Principal>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Decimal {
        pub human_readable: Option<String>,
    }

    #[derive(CandidType, Deserialize)]
    pub enum Topic {
        Unspecified,
        NeuronManagement,
        ExchangeRate,
        NetworkEconomics,
        Governance,
        NodeAdmin,
        ParticipantManagement,
        SubnetManagement,
        NetworkCanisterManagement,
        Kyc,
        NodeProviderRewards,
        IcOsVersionDeployment,
        IcOsVersionElection,
        SnsAndCommunityFund,
        ApiBoundaryNodeManagement,
        SubnetRental,
        ProtocolCanisterManagement,
        ServiceNervousSystemManagement,
    }

    #[derive(CandidType, Deserialize)]
    pub struct FolloweesForTopic {
        pub topic: Option<i32>,
        pub followees: Option<Vec<NeuronId>>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct SetFollowing {
        pub topic_following: Option<Vec<FolloweesForTopic>>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct KnownNeuronData {
        pub name: String,
        pub description: Option<String>,
        pub links: Option<Vec<String>>,
        pub committed_topics: Option<Vec<Option<Topic>>>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct KnownNeuron {
        pub id: Option<NeuronId>,
        pub known_neuron_data: Option<KnownNeuronData>,
    }

    #[derive(CandidType, Deserialize)]
    pub enum NeuronIdOrSubaccount {
        Subaccount(ByteBuf),
        NeuronId(NeuronId),
    }

    #[derive(CandidType, Deserialize)]
    pub struct Spawn {
        pub percentage_to_spawn: Option<u32>,
        pub new_controller: Option<Principal>,
        pub nonce: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Split {
        pub amount_e8s: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Follow {
        pub topic: i32,
        pub followees: Vec<NeuronId>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct ClaimOrRefreshNeuronFromAccount {
        pub controller: Option<Principal>,
        pub memo: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub enum By {
        NeuronIdOrSubaccount(EmptyRecord),
        MemoAndController(ClaimOrRefreshNeuronFromAccount),
        Memo(u64),
    }

    #[derive(CandidType, Deserialize)]
    pub struct ClaimOrRefresh {
        pub by: Option<By>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct RegisterVote {
        pub vote: i32,
        pub proposal: Option<ProposalId>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Merge {
        pub source_neuron_id: Option<NeuronId>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct DisburseToNeuron {
        pub dissolve_delay_seconds: u64,
        pub kyc_verified: bool,
        pub amount_e8s: u64,
        pub new_controller: Option<Principal>,
        pub nonce: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct StakeMaturity {
        pub percentage_to_stake: Option<u32>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct MergeMaturity {
        pub percentage_to_merge: u32,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Amount {
        pub e8s: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Disburse {
        pub to_account: Option<AccountIdentifier>,
        pub amount: Option<Amount>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct AddHotKey {
        pub new_hot_key: Option<Principal>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct RemoveHotKey {
        pub hot_key_to_remove: Option<Principal>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct ChangeAutoStakeMaturity {
        pub requested_setting_for_auto_stake_maturity: bool,
    }

    #[derive(CandidType, Deserialize)]
    pub struct IncreaseDissolveDelay {
        pub additional_dissolve_delay_seconds: u32,
    }

    #[derive(CandidType, Deserialize)]
    pub struct SetDissolveTimestamp {
        pub dissolve_timestamp_seconds: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct SetVisibility {
        pub visibility: Option<i32>,
    }

    #[derive(CandidType, Deserialize)]
    pub enum Operation {
        RemoveHotKey(RemoveHotKey),
        AddHotKey(AddHotKey),
        ChangeAutoStakeMaturity(ChangeAutoStakeMaturity),
        StopDissolving(EmptyRecord),
        StartDissolving(EmptyRecord),
        IncreaseDissolveDelay(IncreaseDissolveDelay),
        SetVisibility(SetVisibility),
        JoinCommunityFund(EmptyRecord),
        LeaveCommunityFund(EmptyRecord),
        SetDissolveTimestamp(SetDissolveTimestamp),
    }

    #[derive(CandidType, Deserialize)]
    pub struct Configure {
        pub operation: Option<Operation>,
    }

    #[derive(CandidType, Deserialize)]
    pub enum ManageNeuronCommandRequest {
        Spawn(Spawn),
        Split(Split),
        Follow(Follow),
        ClaimOrRefresh(ClaimOrRefresh),
        Configure(Configure),
        RegisterVote(RegisterVote),
        Merge(Merge),
        DisburseToNeuron(DisburseToNeuron),
        MakeProposal(MakeProposalRequest),
        StakeMaturity(StakeMaturity),
        MergeMaturity(MergeMaturity),
        Disburse(Disburse),
        RefreshVotingPower(EmptyRecord),
        SetFollowing(SetFollowing),
    }

    /// `manage_neuron`'s argument.
    #[derive(CandidType, Deserialize)]
    pub struct ManageNeuronRequest {
        pub id: Option<NeuronId>,
        pub command: Option<ManageNeuronCommandRequest>,
        pub neuron_id_or_subaccount: Option<NeuronIdOrSubaccount>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Motion {
        pub motion_text: String,
    }

    #[derive(CandidType, Deserialize)]
    pub struct ExecuteNnsFunction {
        pub nns_function: i32,
        pub payload: ByteBuf,
    }

    #[derive(CandidType, Deserialize)]
    pub struct InstallCodeRequest {
        pub arg: Option<ByteBuf>,
        pub wasm_module: Option<ByteBuf>,
        pub skip_stopping_before_installing: Option<bool>,
        pub canister_id: Option<Principal>,
        pub install_mode: Option<i32>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct StopOrStartCanister {
        pub action: Option<i32>,
        pub canister_id: Option<Principal>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct Controllers {
        pub controllers: Vec<Principal>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct CanisterSettings {
        pub freezing_threshold: Option<u64>,
        pub wasm_memory_threshold: Option<u64>,
        pub controllers: Option<Controllers>,
        pub log_visibility: Option<i32>,
        pub wasm_memory_limit: Option<u64>,
        pub memory_allocation: Option<u64>,
        pub compute_allocation: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct UpdateCanisterSettings {
        pub canister_id: Option<Principal>,
        pub settings: Option<CanisterSettings>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct VotingPowerEconomics {
        pub start_reducing_voting_power_after_seconds: Option<u64>,
        pub neuron_minimum_dissolve_delay_to_vote_seconds: Option<u64>,
        pub clear_following_after_seconds: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct NeuronsFundMatchedFundingCurveCoefficients {
        pub contribution_threshold_xdr: Option<Decimal>,
        pub one_third_participation_milestone_xdr: Option<Decimal>,
        pub full_participation_milestone_xdr: Option<Decimal>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct NeuronsFundEconomics {
        pub maximum_icp_xdr_rate: Option<Percentage>,
        pub neurons_fund_matched_funding_curve_coefficients:
            Option<NeuronsFundMatchedFundingCurveCoefficients>,
        pub max_theoretical_neurons_fund_participation_amount_xdr: Option<Decimal>,
        pub minimum_icp_xdr_rate: Option<Percentage>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct NetworkEconomics {
        pub neuron_minimum_stake_e8s: u64,
        pub voting_power_economics: Option<VotingPowerEconomics>,
        pub max_proposals_to_keep_per_topic: u32,
        pub neuron_management_fee_per_proposal_e8s: u64,
        pub reject_cost_e8s: u64,
        pub transaction_fee_e8s: u64,
        pub neuron_spawn_dissolve_delay_seconds: u64,
        pub minimum_icp_xdr_rate: u64,
        pub maximum_node_provider_rewards_e8s: u64,
        pub neurons_fund_economics: Option<NeuronsFundEconomics>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct NodeProvider {
        pub id: Option<Principal>,
        pub reward_account: Option<AccountIdentifier>,
    }

    #[derive(CandidType, Deserialize)]
    pub enum Change {
        ToRemove(NodeProvider),
        ToAdd(NodeProvider),
    }

    #[derive(CandidType, Deserialize)]
    pub struct AddOrRemoveNodeProvider {
        pub change: Option<Change>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct RewardToNeuron {
        pub dissolve_delay_seconds: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct RewardToAccount {
        pub to_account: Option<AccountIdentifier>,
    }

    #[derive(CandidType, Deserialize)]
    pub enum RewardMode {
        RewardToNeuron(RewardToNeuron),
        RewardToAccount(RewardToAccount),
    }

    #[derive(CandidType, Deserialize)]
    pub struct RewardNodeProvider {
        pub node_provider: Option<NodeProvider>,
        pub reward_mode: Option<RewardMode>,
        pub amount_e8s: u64,
    }

    #[derive(CandidType, Deserialize)]
    pub struct RewardNodeProviders {
        pub use_registry_derived_rewards: Option<bool>,
        pub rewards: Vec<RewardNodeProvider>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct NeuronBasketConstructionParameters {
        pub dissolve_delay_interval: Option<Duration>,
        pub count: Option<u64>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct SwapParameters {
        pub minimum_participants: Option<u64>,
        pub neurons_fund_participation: Option<bool>,
        pub duration: Option<Duration>,
        pub neuron_basket_construction_parameters: Option<NeuronBasketConstructionParameters>,
        pub confirmation_text: Option<String>,
        pub maximum_participant_icp: Option<Tokens>,
        pub minimum_icp: Option<Tokens>,
        pub minimum_direct_participation_icp: Option<Tokens>,
        pub minimum_participant_icp: Option<Tokens>,
        pub start_time: Option<GlobalTimeOfDay>,
        pub maximum_direct_participation_icp: Option<Tokens>,
        pub maximum_icp: Option<Tokens>,
        pub neurons_fund_investment_icp: Option<Tokens>,
        pub restricted_countries: Option<Countries>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct LedgerParameters {
        pub transaction_fee: Option<Tokens>,
        pub token_symbol: Option<String>,
        pub token_logo: Option<Image>,
        pub token_name: Option<String>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct VotingRewardParameters {
        pub reward_rate_transition_duration: Option<Duration>,
        pub initial_reward_rate: Option<Percentage>,
        pub final_reward_rate: Option<Percentage>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct GovernanceParameters {
        pub neuron_maximum_dissolve_delay_bonus: Option<Percentage>,
        pub neuron_maximum_age_for_age_bonus: Option<Duration>,
        pub neuron_maximum_dissolve_delay: Option<Duration>,
        pub neuron_minimum_dissolve_delay_to_vote: Option<Duration>,
        pub neuron_maximum_age_bonus: Option<Percentage>,
        pub neuron_minimum_stake: Option<Tokens>,
        pub proposal_wait_for_quiet_deadline_increase: Option<Duration>,
        pub proposal_initial_voting_period: Option<Duration>,
        pub proposal_rejection_fee: Option<Tokens>,
        pub voting_reward_parameters: Option<VotingRewardParameters>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct NeuronDistribution {
        pub controller: Option<Principal>,
        pub dissolve_delay: Option<Duration>,
        pub memo: Option<u64>,
        pub vesting_period: Option<Duration>,
        pub stake: Option<Tokens>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct DeveloperDistribution {
        pub developer_neurons: Vec<NeuronDistribution>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct SwapDistribution {
        pub total: Option<Tokens>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct InitialTokenDistribution {
        pub treasury_distribution: Option<SwapDistribution>,
        pub developer_distribution: Option<DeveloperDistribution>,
        pub swap_distribution: Option<SwapDistribution>,
    }

    #[derive(CandidType, Deserialize)]
    pub struct CreateServiceNervousSystem {
        pub url: Option<String>,
        pub governance_parameters: Option<GovernanceParameters>,
        pub fallback_controller_principal_ids: Vec<Principal>,
        pub logo: Option<Image>,
        pub name: Option<String>,
        pub ledger_parameters: Option<LedgerParameters>,
        pub description: Option<String>,
        pub dapp_canisters: Vec<Canister>,
        pub swap_parameters: Option<SwapParameters>,
        pub initial_token_distribution: Option<InitialTokenDistribution>,
    }

    #[derive(CandidType, Deserialize)]
    pub enum ProposalActionRequest {
        RegisterKnownNeuron(KnownNeuron),
        ManageNeuron(Box<ManageNeuronRequest>),
        UpdateCanisterSettings(UpdateCanisterSettings),
        InstallCode(InstallCodeRequest),
        StopOrStartCanister(StopOrStartCanister),
        CreateServiceNervousSystem(CreateServiceNervousSystem),
        ExecuteNnsFunction(ExecuteNnsFunction),
        RewardNodeProvider(RewardNodeProvider),
        RewardNodeProviders(RewardNodeProviders),
        ManageNetworkEconomics(NetworkEconomics),
        ApproveGenesisKyc(Principals),
        AddOrRemoveNodeProvider(AddOrRemoveNodeProvider),
        Motion(Motion),
    }

    #[derive(CandidType, Deserialize)]
    pub struct MakeProposalRequest {
        pub url: String,
        pub title: Option<String>,
        pub action: Option<ProposalActionRequest>,
        pub summary: String,
    }
}
