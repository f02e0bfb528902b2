//! A token-voting DAO with the Basic DAO interface that dfinity/canister-profiling
//! measures (`dapps/rust/basic_dao`, its `.did`), written here from that interface and
//! from what each call does there: balances in a hash map keyed by principal, proposals
//! in a hash map keyed by id; submitting a proposal takes a deposit, a vote adds the
//! voter's balance to one side, and a side reaching the threshold accepts (refunding the
//! deposit) or rejects the proposal. As there, nothing executes accepted proposals (the
//! heartbeat is off). It lets the same calls be sent to a canister built on candid and
//! on candor and compared with the Motoko numbers that repository publishes.

use candid::{CandidType, Deserialize, Principal};
use std::cell::RefCell;
use std::collections::HashMap;

#[derive(CandidType, Deserialize, Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord)]
pub struct Tokens {
    pub amount_e8s: u64,
}

impl Tokens {
    fn plus(self, other: Tokens) -> Tokens {
        Tokens {
            amount_e8s: self.amount_e8s.saturating_add(other.amount_e8s),
        }
    }
    fn minus(self, other: Tokens) -> Tokens {
        Tokens {
            amount_e8s: self.amount_e8s.saturating_sub(other.amount_e8s),
        }
    }
}

#[derive(CandidType, Deserialize, Clone, Debug, PartialEq, Eq)]
pub enum ProposalState {
    Open,
    Accepted,
    Rejected,
    Executing,
    Succeeded,
    Failed(String),
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct ProposalPayload {
    pub canister_id: Principal,
    pub method: String,
    pub message: Vec<u8>,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct Proposal {
    pub id: u64,
    pub timestamp: u64,
    pub proposer: Principal,
    pub payload: ProposalPayload,
    pub state: ProposalState,
    pub votes_yes: Tokens,
    pub votes_no: Tokens,
    pub voters: Vec<Principal>,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct Account {
    pub owner: Principal,
    pub tokens: Tokens,
}

#[derive(CandidType, Deserialize, Clone, Debug, Default)]
pub struct SystemParams {
    pub transfer_fee: Tokens,
    pub proposal_vote_threshold: Tokens,
    pub proposal_submission_deposit: Tokens,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct BasicDaoStableStorage {
    pub accounts: Vec<Account>,
    pub proposals: Vec<Proposal>,
    pub system_params: SystemParams,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct TransferArgs {
    pub to: Principal,
    pub amount: Tokens,
}

#[derive(CandidType, Deserialize, Clone, Copy, Debug)]
pub enum Vote {
    Yes,
    No,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct VoteArgs {
    pub proposal_id: u64,
    pub vote: Vote,
}

#[derive(CandidType, Deserialize, Clone, Debug)]
pub struct UpdateSystemParamsPayload {
    pub transfer_fee: Option<Tokens>,
    pub proposal_vote_threshold: Option<Tokens>,
    pub proposal_submission_deposit: Option<Tokens>,
}

#[derive(Default)]
struct Dao {
    balances: HashMap<Principal, Tokens>,
    proposals: HashMap<u64, Proposal>,
    next_id: u64,
    params: SystemParams,
}

impl Dao {
    fn transfer(&mut self, from: Principal, args: TransferArgs) -> Result<(), String> {
        let fee = self.params.transfer_fee;
        let Some(balance) = self.balances.get_mut(&from) else {
            return Err("Caller needs an account to transfer funds".into());
        };
        if *balance < args.amount {
            return Err(format!(
                "Caller's account has insufficient funds to transfer {:?}",
                args.amount
            ));
        }
        *balance = balance.minus(args.amount.plus(fee));
        let to = self.balances.entry(args.to).or_default();
        *to = to.plus(args.amount);
        Ok(())
    }

    fn submit(
        &mut self,
        proposer: Principal,
        now: u64,
        payload: ProposalPayload,
    ) -> Result<u64, String> {
        let deposit = self.params.proposal_submission_deposit;
        let Some(balance) = self.balances.get_mut(&proposer) else {
            return Err("Caller needs an account to submit a proposal".into());
        };
        if *balance < deposit {
            return Err(format!(
                "Caller's account must have at least {deposit:?} to submit a proposal"
            ));
        }
        *balance = balance.minus(deposit);
        let id = self.next_id;
        self.next_id += 1;
        self.proposals.insert(
            id,
            Proposal {
                id,
                timestamp: now,
                proposer,
                payload,
                state: ProposalState::Open,
                votes_yes: Tokens::default(),
                votes_no: Tokens::default(),
                voters: Vec::new(),
            },
        );
        Ok(id)
    }

    fn vote(&mut self, voter: Principal, args: VoteArgs) -> Result<ProposalState, String> {
        let params = self.params.clone();
        let proposal = self
            .proposals
            .get_mut(&args.proposal_id)
            .ok_or_else(|| format!("No proposal with ID {} exists", args.proposal_id))?;
        if proposal.state != ProposalState::Open {
            return Err(format!(
                "Proposal {} is not open for voting",
                args.proposal_id
            ));
        }
        let weight = *self
            .balances
            .get(&voter)
            .ok_or_else(|| "Caller does not have any tokens to vote with".to_string())?;
        if proposal.voters.contains(&voter) {
            return Err("Already voted".into());
        }
        match args.vote {
            Vote::Yes => proposal.votes_yes = proposal.votes_yes.plus(weight),
            Vote::No => proposal.votes_no = proposal.votes_no.plus(weight),
        }
        proposal.voters.push(voter);
        if proposal.votes_yes >= params.proposal_vote_threshold {
            proposal.state = ProposalState::Accepted;
            if let Some(balance) = self.balances.get_mut(&proposal.proposer) {
                *balance = balance.plus(params.proposal_submission_deposit);
            }
        }
        if proposal.votes_no >= params.proposal_vote_threshold {
            proposal.state = ProposalState::Rejected;
        }
        Ok(proposal.state.clone())
    }
}

thread_local! {
    static DAO: RefCell<Dao> = RefCell::new(Dao::default());
}

fn read<T>(f: impl FnOnce(&Dao) -> T) -> T {
    DAO.with(|d| f(&d.borrow()))
}

fn write<T>(f: impl FnOnce(&mut Dao) -> T) -> T {
    DAO.with(|d| f(&mut d.borrow_mut()))
}

fn caller() -> Principal {
    ic_cdk::api::msg_caller()
}

#[ic_cdk::init]
fn init(storage: BasicDaoStableStorage) {
    write(|d| {
        d.balances = storage
            .accounts
            .into_iter()
            .map(|a| (a.owner, a.tokens))
            .collect();
        d.proposals = storage.proposals.into_iter().map(|p| (p.id, p)).collect();
        d.params = storage.system_params;
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
    warm_up::<(), (SystemParams,)>().unwrap();
    warm_up::<(TransferArgs,), (Result<(), String>,)>().unwrap();
    warm_up::<(), (Tokens,)>().unwrap();
    warm_up::<(), (Vec<Account>,)>().unwrap();
    warm_up::<(ProposalPayload,), (Result<u64, String>,)>().unwrap();
    warm_up::<(u64,), (Option<Proposal>,)>().unwrap();
    warm_up::<(), (Vec<Proposal>,)>().unwrap();
    warm_up::<(VoteArgs,), (Result<ProposalState, String>,)>().unwrap();
    warm_up::<(UpdateSystemParamsPayload,), ((),)>().unwrap();
}

#[ic_cdk::query]
fn get_system_params() -> SystemParams {
    read(|d| d.params.clone())
}

#[ic_cdk::update]
fn transfer(args: TransferArgs) -> Result<(), String> {
    let from = caller();
    write(|d| d.transfer(from, args))
}

#[ic_cdk::query]
fn account_balance() -> Tokens {
    let who = caller();
    read(|d| d.balances.get(&who).copied().unwrap_or_default())
}

#[ic_cdk::query]
fn list_accounts() -> Vec<Account> {
    read(|d| {
        d.balances
            .iter()
            .map(|(&owner, &tokens)| Account { owner, tokens })
            .collect()
    })
}

#[ic_cdk::update]
fn submit_proposal(payload: ProposalPayload) -> Result<u64, String> {
    let (proposer, now) = (caller(), ic_cdk::api::time());
    write(|d| d.submit(proposer, now, payload))
}

#[ic_cdk::query]
fn get_proposal(id: u64) -> Option<Proposal> {
    read(|d| d.proposals.get(&id).cloned())
}

#[ic_cdk::query]
fn list_proposals() -> Vec<Proposal> {
    read(|d| d.proposals.values().cloned().collect())
}

#[ic_cdk::update]
fn vote(args: VoteArgs) -> Result<ProposalState, String> {
    let voter = caller();
    write(|d| d.vote(voter, args))
}

/// Only the canister itself may change its parameters (an accepted proposal's call).
#[ic_cdk::update]
fn update_system_params(payload: UpdateSystemParamsPayload) {
    if caller() != ic_cdk::api::canister_self() {
        return;
    }
    write(|d| {
        let p = &mut d.params;
        p.transfer_fee = payload.transfer_fee.unwrap_or(p.transfer_fee);
        p.proposal_vote_threshold = payload
            .proposal_vote_threshold
            .unwrap_or(p.proposal_vote_threshold);
        p.proposal_submission_deposit = payload
            .proposal_submission_deposit
            .unwrap_or(p.proposal_submission_deposit);
    });
}

ic_cdk::export_candid!();
