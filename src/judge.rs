//! Which format and game a record found in a text is judged in: [`with_found`] gives work done
//! once for every format ([`WithOpenRecord`]) the record in its format ([`OpenRecord`]), the common
//! format's of the game its `[Game]` tag (or `--game`) names, or the published notation's.
//! `verify`, `repair`, `show` and `convert` all start a record here.
//!
//! Which games a run knows is one of its options ([`VerifyOptions::games`], a [`Games`]): the
//! registry's ([`Registry`], by default), or one game's ([`Only`]), which need not be one of
//! referee's: every entry point that takes [`VerifyOptions`] serves a game defined outside the
//! crate as it serves its own.
//!
//! [`OpenRecord`]: crate::format::OpenRecord

use crate::format::common::common_verdict;
use crate::format::{problem, status_of, Recorded, WithGame, WithOpenRecord};
use crate::game::{About, Format, Playable};
use crate::games::GameKind;
use crate::record::common::CommonRecord;
use crate::record::Found;
use crate::search::{SearchBudget, DEFAULT_SEARCH_BYTES};
use crate::verdict::{Problem, ProblemKind, Verdict};

/// How to verify, and the games a run knows (`S`: the registry's by default).
#[derive(Clone, Copy, Debug)]
pub struct VerifyOptions<S = Registry> {
    /// Replay past illegal moves where the move can still be played as written, listing all of them
    /// (at most [`MAX_VIOLATIONS`](crate::replay::MAX_VIOLATIONS)), rather than stopping at the first.
    pub lenient: bool,
    /// The game to read records as, overriding what their text suggests (`--game`): one of
    /// `games`.
    pub game: Option<&'static About>,
    /// Most positions searched to judge a claim made before the game is over.
    pub search_limit: usize,
    /// Most bytes one such search may hold, whatever `search_limit` says.
    pub search_bytes: usize,
    /// Whether each verdict tells where the game stands in words and as a position code
    /// (`Verdict::score_text`, `Verdict::position`): on by default; off for a report that prints
    /// neither (`verify --format short`), where writing them was 3 to 5% of a valid record's time.
    pub standing: bool,
    /// The games the records are read as.
    pub games: S,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            lenient: false,
            game: None,
            search_limit: DEFAULT_SEARCH_LIMIT,
            search_bytes: DEFAULT_SEARCH_BYTES,
            standing: true,
            games: Registry,
        }
    }
}

impl VerifyOptions {
    /// The default options, the records read as records of `G` ([`Only`]): a game defined outside
    /// the crate, or one of referee's read whatever the records' `[Game]` tags say.
    pub fn of<G: Playable>() -> VerifyOptions<Only<G>> {
        VerifyOptions::default().with_games(Only::new())
    }
}

impl<S: Games> VerifyOptions<S> {
    /// These options, the records read as records of `games`.
    pub fn with_games<T: Games>(self, games: T) -> VerifyOptions<T> {
        let VerifyOptions { lenient, game, search_limit, search_bytes, standing, games: _ } = self;
        VerifyOptions { lenient, game, search_limit, search_bytes, standing, games }
    }

    /// What the reader is told of the records' game: `record::read`'s `game`.
    pub fn reading(&self) -> Option<&'static About> {
        self.games.reading(self.game)
    }

    /// What the searches of one file may spend: `search_limit` positions a claim, four times that
    /// in all, `search_bytes` a search.
    pub fn file_budget(&self) -> SearchBudget {
        SearchBudget::for_file(self.search_limit, self.search_bytes)
    }

    /// What the searches of one run of the command line may spend, all its files together: as
    /// much as one file's ([`SearchBudget::for_run`]).
    pub fn run_budget(&self) -> SearchBudget {
        SearchBudget::for_run(self.search_limit, self.search_bytes)
    }
}

/// Enough for real endgames (thousands of positions) while a hopeless search stops in about a
/// second (README, "Claims before the end", has the figures per game).
pub const DEFAULT_SEARCH_LIMIT: usize = 250_000;

/// The games a run reads records as: finds the game and record format of a record found in a text.
pub trait Games: Copy + Send + Sync + std::fmt::Debug + 'static {
    /// What the reader is told of the records' game (see `record::read`), `game` being `--game`.
    fn reading(self, game: Option<&'static About>) -> Option<&'static About>;
    /// Runs `work` on record `found` of `src` in its game's record format; `Err` when none of these
    /// games reads it, with the record's whole verdict.
    fn open<'r, W: WithOpenRecord<'r>>(
        self,
        src: &str,
        found: &'r Found,
        game: Option<&'static About>,
        work: W,
    ) -> Result<W::Output, Box<Unstarted>>;
    /// Runs `work` with the engine and record format of the game `name` names; `None` if none of
    /// these games is so named.
    fn with_named<W: WithGame>(self, name: &str, work: W) -> Option<W::Output>;
    /// What each of these games is, in order.
    fn abouts(self) -> Vec<&'static About>;
    /// Runs `work` with the engine of the game the common-format record `r` of `src` is of among
    /// these games (`game`, else its `[Game]` tag); `None` when it is of none of them.
    fn with_record_game<W: WithGame>(
        self,
        src: &str,
        r: &CommonRecord,
        game: Option<&'static About>,
        work: W,
    ) -> Option<W::Output>;
    /// These games and `G` besides (a game defined outside the crate added to the registry's:
    /// `Registry.and::<MyGame>()`), a record of `G` known by its `[Game]` tag.
    fn and<G: Playable>(self) -> Also<Self, G> {
        Also(self, std::marker::PhantomData)
    }
}

/// The games of the registry ([`GameKind`]): each record is of the game its `[Game]` tag names (or
/// `--game`), a record of the published notation of its notation's games.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Registry;

impl Games for Registry {
    fn reading(self, game: Option<&'static About>) -> Option<&'static About> {
        game
    }

    fn open<'r, W: WithOpenRecord<'r>>(
        self,
        src: &str,
        found: &'r Found,
        game: Option<&'static About>,
        work: W,
    ) -> Result<W::Output, Box<Unstarted>> {
        open_registered(src, found, game.and_then(GameKind::of), work)
    }

    fn with_named<W: WithGame>(self, name: &str, work: W) -> Option<W::Output> {
        GameKind::from_name(name).map(|k| k.with_game(work))
    }

    fn abouts(self) -> Vec<&'static About> {
        GameKind::ALL.iter().map(|k| k.about()).collect()
    }

    fn with_record_game<W: WithGame>(
        self,
        src: &str,
        r: &CommonRecord,
        game: Option<&'static About>,
        work: W,
    ) -> Option<W::Output> {
        common_kind(src, r, game.and_then(GameKind::of)).ok().map(|k| k.with_game(work))
    }
}

/// One game, `G`, which need not be one of referee's: every record is read as a record of `G` in
/// the common format (a numbered move line outside any record opens one; a `[Game]` tag that names
/// another game is a syntax error).
pub struct Only<G>(std::marker::PhantomData<fn() -> G>);

impl<G> Only<G> {
    /// The game `G`.
    pub const fn new() -> Self {
        Only(std::marker::PhantomData)
    }
}

impl<G> Default for Only<G> {
    fn default() -> Self {
        Only::new()
    }
}

impl<G> Clone for Only<G> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<G> Copy for Only<G> {}

impl<G> std::fmt::Debug for Only<G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Only({})", std::any::type_name::<G>())
    }
}

impl<G: Playable> Games for Only<G> {
    fn reading(self, _: Option<&'static About>) -> Option<&'static About> {
        Some(const { &G::ABOUT })
    }

    fn open<'r, W: WithOpenRecord<'r>>(
        self,
        src: &str,
        found: &'r Found,
        _: Option<&'static About>,
        work: W,
    ) -> Result<W::Output, Box<Unstarted>> {
        match found {
            Found::Common(r) => Ok(work.run(crate::format::common::Common::<G>::of(src, r))),
            Found::Published(_) => refused_published::<G, W>(src, found, work),
        }
    }

    fn with_named<W: WithGame>(self, name: &str, work: W) -> Option<W::Output> {
        let about = const { &G::ABOUT };
        about.is_named(name).then(|| work.run::<G>(about))
    }

    fn abouts(self) -> Vec<&'static About> {
        vec![const { &G::ABOUT }]
    }

    fn with_record_game<W: WithGame>(
        self,
        _: &str,
        _: &CommonRecord,
        _: Option<&'static About>,
        work: W,
    ) -> Option<W::Output> {
        Some(work.run::<G>(const { &G::ABOUT }))
    }
}

/// A record of the published notation opened as `G`'s, which the common format refuses, saying
/// why.
fn refused_published<'r, G: Playable, W: WithOpenRecord<'r>>(
    src: &str,
    found: &'r Found,
    work: W,
) -> Result<W::Output, Box<Unstarted>> {
    let about = const { &G::ABOUT };
    G::open(src, found, about, None, work).map_err(|why| {
        let mut verdict = Verdict::new(found.index(), found.span(), Some(about));
        verdict.problems.push(why.clone());
        verdict.status = status_of(&verdict.problems);
        Box::new(Unstarted { verdict, why })
    })
}

/// The game a common-format record is of: `--game`, else its `[Game]` tag.
pub(crate) fn common_kind(src: &str, r: &CommonRecord, forced: Option<GameKind>) -> Result<GameKind, Problem> {
    if let Some(kind) = forced {
        return Ok(kind);
    }
    let Some(tag) = r.tag("Game") else {
        let at = r.tags.first().map_or(r.span.start..r.span.start, |t| t.span.clone());
        return Err(problem(
            ProblemKind::Syntax,
            at.clone(),
            &src[at],
            "the record has no [Game \"...\"] tag: add one, such as [Game \"Quarod\"], or name the game with --game"
                .into(),
        ));
    };
    GameKind::from_name(tag.value).ok_or_else(|| {
        let known: Vec<&'static About> = GameKind::ALL.iter().map(|k| k.about()).collect();
        unknown_game(src, tag, &known)
    })
}

/// How many players a common-format record's game starts with (its `[Players]` tag, its
/// `[Position]` code, else its game's default); `None` when its game or start cannot be had.
#[cfg(feature = "lsp")]
pub(crate) fn common_players<S: Games>(src: &str, r: &CommonRecord, options: VerifyOptions<S>) -> Option<usize> {
    struct Players<'s, 'r>(&'s str, &'r CommonRecord<'r>);
    impl crate::format::WithPlayable for Players<'_, '_> {
        type Output = Option<usize>;
        fn run<G: Playable>(self) -> Option<usize> {
            let start = crate::format::common::common_start::<G>(self.0, self.1).ok()?;
            Some(start.player_names().len())
        }
    }
    options.games.with_record_game(src, r, options.game, crate::format::AsPlayable(Players(src, r)))??
}

/// The registry's one dispatch ([`crate::games`]): work with each game's engine and record
/// format.
macro_rules! dispatch {
    ($($(#[$doc:meta])* $variant:ident => $engine:ty, $about:expr;)*) => {
        impl GameKind {
            /// Runs `work` with this game's engine and record format.
            pub fn with_game<W: WithGame>(self, work: W) -> W::Output {
                match self {
                    $(GameKind::$variant => work.run::<$engine>(&$about),)*
                }
            }
        }
    };
}

crate::games::each_game!(dispatch);

/// Why a record found in a text has no format to judge it in: its `[Game]` tag names no game
/// referee knows, or a game of the published notation.
#[derive(Clone, Debug)]
pub struct Unstarted {
    /// The record's whole verdict: its syntax errors and `why`.
    pub verdict: Verdict,
    /// Why.
    pub why: Problem,
}

/// The games of `S` and the game `G` besides: see [`Games::and`].
pub struct Also<S, G>(S, std::marker::PhantomData<fn() -> G>);

impl<S: Clone, G> Clone for Also<S, G> {
    fn clone(&self) -> Self {
        Also(self.0.clone(), std::marker::PhantomData)
    }
}

impl<S: Copy, G> Copy for Also<S, G> {}

impl<S: std::fmt::Debug, G> std::fmt::Debug for Also<S, G> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Also({:?}, {})", self.0, std::any::type_name::<G>())
    }
}

impl<S: Games, G: Playable> Also<S, G> {
    /// Whether `--game` names `G`.
    fn forces_g(game: Option<&'static About>) -> bool {
        game.is_some_and(|a| a.name == G::ABOUT.name)
    }

    /// Whether a common-format record is `G`'s: `--game` names `G`, or no game and its `[Game]` tag
    /// names `G`.
    fn names_g(r: &CommonRecord, game: Option<&'static About>) -> bool {
        Self::forces_g(game) || game.is_none() && r.tag("Game").is_some_and(|t| G::ABOUT.is_named(t.value))
    }
}

impl<S: Games, G: Playable> Games for Also<S, G> {
    fn reading(self, game: Option<&'static About>) -> Option<&'static About> {
        self.0.reading(game)
    }

    fn open<'r, W: WithOpenRecord<'r>>(
        self,
        src: &str,
        found: &'r Found,
        game: Option<&'static About>,
        work: W,
    ) -> Result<W::Output, Box<Unstarted>> {
        let about = const { &G::ABOUT };
        match found {
            Found::Common(r) if Self::names_g(r, game) => {
                Ok(work.run(crate::format::common::Common::<G>::named(src, r, about)))
            }
            Found::Published(_) if Self::forces_g(game) => refused_published::<G, W>(src, found, work),
            // A tag that names none of these games: the problem names them all.
            Found::Common(r) if game.is_none() => {
                let abouts = self.abouts();
                match r.tag("Game") {
                    Some(tag) if !abouts.iter().any(|a| a.is_named(tag.value)) => {
                        Err(unstarted_common(src, r, None, unknown_game(src, tag, &abouts)))
                    }
                    _ => self.0.open(src, found, game, work),
                }
            }
            _ => self.0.open(src, found, game, work),
        }
    }

    fn with_named<W: WithGame>(self, name: &str, work: W) -> Option<W::Output> {
        let about = const { &G::ABOUT };
        if about.is_named(name) {
            Some(work.run::<G>(about))
        } else {
            self.0.with_named(name, work)
        }
    }

    fn abouts(self) -> Vec<&'static About> {
        let mut abouts = self.0.abouts();
        abouts.push(const { &G::ABOUT });
        abouts
    }

    fn with_record_game<W: WithGame>(
        self,
        src: &str,
        r: &CommonRecord,
        game: Option<&'static About>,
        work: W,
    ) -> Option<W::Output> {
        if Self::names_g(r, game) {
            Some(work.run::<G>(const { &G::ABOUT }))
        } else {
            self.0.with_record_game(src, r, game, work)
        }
    }
}

/// Runs `work` on record `found` of `src` in its format and its game's engine: the published
/// notation, or the common format of the game `--game` or its `[Game]` tag names. `Err` when no
/// game is known for it.
pub fn with_found<'r, S: Games, W: WithOpenRecord<'r>>(
    src: &str,
    found: &'r Found,
    options: VerifyOptions<S>,
    work: W,
) -> Result<W::Output, Box<Unstarted>> {
    options.games.open(src, found, options.game, work)
}

/// A common-format record of `src` that is not judged, of `about` if its game is known: its syntax
/// errors and `why`.
fn unstarted_common(src: &str, r: &CommonRecord, about: Option<&'static About>, why: Problem) -> Box<Unstarted> {
    let mut verdict = common_verdict(src, r, about);
    verdict.problems.push(why.clone());
    verdict.problems.sort_by_key(|p| p.span.start);
    verdict.status = status_of(&verdict.problems);
    Box::new(Unstarted { verdict, why })
}

/// The problem of a `[Game]` tag that names none of the games `known`.
fn unknown_game(src: &str, tag: &crate::record::common::Tag, known: &[&'static About]) -> Problem {
    let known = known.iter().map(|g| g.name).collect::<Vec<_>>().join(", ");
    problem(
        ProblemKind::Syntax,
        tag.value_span.clone(),
        &src[tag.value_span.clone()],
        format!("unknown game `{}`: referee knows {known}", tag.value),
    )
}

/// [`with_found`] for the games of the registry, `game` the one `--game` names.
fn open_registered<'r, W: WithOpenRecord<'r>>(
    src: &str,
    found: &'r Found,
    game: Option<GameKind>,
    work: W,
) -> Result<W::Output, Box<Unstarted>> {
    struct Open<'s, 'r, 'a, W> {
        src: &'s str,
        found: &'r Found<'a>,
        forced: Option<&'static About>,
        work: W,
    }
    impl<'r, W: WithOpenRecord<'r>> WithGame for Open<'_, 'r, '_, W> {
        type Output = Result<W::Output, Problem>;
        fn run<G: Recorded>(self, about: &'static About) -> Self::Output {
            G::open(self.src, self.found, about, self.forced, self.work)
        }
    }
    let forced = game.map(GameKind::about);
    match found {
        Found::Published(r) => {
            let published = |k: &GameKind| k.about().format == Format::Published;
            let kind = game.filter(published).or_else(|| GameKind::ALL.into_iter().find(published));
            let opened = kind.map(|k| k.with_game(Open { src, found, forced, work }));
            opened.and_then(Result::ok).ok_or_else(|| {
                let why = problem(
                    ProblemKind::Undecided,
                    r.span.clone(),
                    "",
                    "no game of the published notation is known".into(),
                );
                let mut verdict = Verdict::new(r.index, r.span.clone(), None);
                verdict.problems.push(why.clone());
                Box::new(Unstarted { verdict, why })
            })
        }
        Found::Common(r) => {
            let kind = common_kind(src, r, game);
            let unstarted = |why: Problem| unstarted_common(src, r, kind.as_ref().ok().map(|k| k.about()), why);
            match &kind {
                Ok(k) => k.with_game(Open { src, found, forced, work }).map_err(unstarted),
                Err(why) => Err(unstarted(why.clone())),
            }
        }
    }
}
