//! Which format and game a record found in a text is judged in: [`with_found`] gives work done
//! once for every format ([`WithFormat`]) the record in its format ([`RecordFormat`]), the common
//! format's of the game its `[Game]` tag (or `--game`) names, or the published notation's.
//! `verify`, `repair`, `show` and `convert` all start a record here.
//!
//! [`RecordFormat`]: crate::format::RecordFormat

use crate::format::common::{common_verdict, Common};
use crate::format::{problem, status_of, PublishedFormat, WithFormat, WithGameFormat};
use crate::game::{About, CommonFormat, Format, WithCommonFormat};
use crate::games::GameKind;
use crate::record::common::CommonRecord;
use crate::record::{Found, Record};
use crate::search::{SearchBudget, DEFAULT_SEARCH_BYTES};
use crate::verdict::{Problem, ProblemKind, Verdict};

/// How to verify.
#[derive(Clone, Copy, Debug)]
pub struct VerifyOptions {
    /// Replay past illegal moves where the move can still be played as written, listing all of them
    /// (at most [`MAX_VIOLATIONS`](crate::replay::MAX_VIOLATIONS)), rather than stopping at the first.
    pub lenient: bool,
    /// The game to read records as, overriding what their text suggests.
    pub game: Option<GameKind>,
    /// Most positions searched to judge a claim made before the game is over.
    pub search_limit: usize,
    /// Most bytes one such search may hold, whatever `search_limit` says.
    pub search_bytes: usize,
}

impl Default for VerifyOptions {
    fn default() -> Self {
        VerifyOptions {
            lenient: false,
            game: None,
            search_limit: DEFAULT_SEARCH_LIMIT,
            search_bytes: DEFAULT_SEARCH_BYTES,
        }
    }
}

impl VerifyOptions {
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
        let known = GameKind::ALL.iter().map(|g| g.name()).collect::<Vec<_>>().join(", ");
        problem(
            ProblemKind::Syntax,
            tag.value_span.clone(),
            &src[tag.value_span.clone()],
            format!("unknown game `{}`: referee knows {known}", tag.value),
        )
    })
}

/// How many players a common-format record's game starts with (its `[Players]` tag, its
/// `[Position]` code, else its game's default); `None` when its game or start cannot be had.
#[cfg(feature = "lsp")]
pub(crate) fn common_players(src: &str, r: &CommonRecord, forced: Option<GameKind>) -> Option<usize> {
    struct Players<'s, 'r>(&'s str, &'r CommonRecord<'r>);
    impl WithCommonFormat for Players<'_, '_> {
        type Output = Option<usize>;
        fn run<G: CommonFormat>(self) -> Option<usize> {
            let start = crate::format::common::common_start::<G>(self.0, self.1).ok()?;
            Some(start.player_names().len())
        }
    }
    common_kind(src, r, forced).ok()?.with_common_format(Players(src, r))?
}

/// The record formats' dispatch over the games of the registry ([`crate::games`]): with each
/// game's engine and record format, and a published record in its game's format.
macro_rules! formats {
    ($($(#[$doc:meta])* $variant:ident => $engine:ty, $about:expr, $format:ident;)*) => {
        impl GameKind {
            /// Runs `work` with this game's engine and record format.
            pub fn with_game_format<W: WithGameFormat>(self, work: W) -> W::Output {
                match self {
                    $(GameKind::$variant => work.run::<$engine>(),)*
                }
            }

            /// Runs `work` on a record of the published notation, in the format of this game's
            /// engine; `None` for the games of the common format.
            pub fn with_published_format<'r, W: WithFormat<'r>>(
                self,
                src: &str,
                record: &'r Record,
                forced: Option<&'static About>,
                work: W,
            ) -> Option<W::Output> {
                match self {
                    $(GameKind::$variant => formats!(@open $format $engine, src, record, forced, work),)*
                }
            }
        }
    };
    (@open common $engine:ty, $($args:ident),*) => {
        None
    };
    (@open published $engine:ty, $($args:ident),*) => {
        Some(<$engine as PublishedFormat>::with_format($($args),*))
    };
}

crate::games::each_game!(formats);

/// Why a record found in a text has no format to judge it in: its `[Game]` tag names no game
/// referee knows, or a game of the published notation.
#[derive(Clone, Debug)]
pub struct Unstarted {
    /// The record's whole verdict: its syntax errors and `why`.
    pub verdict: Verdict,
    /// Why.
    pub why: Problem,
}

/// Runs `work` on record `found` of `src` in its format and its game's engine: the published
/// notation, or the common format of the game `--game` or its `[Game]` tag names. `Err` when no
/// game is known for it.
pub fn with_found<'r, W: WithFormat<'r>>(
    src: &str,
    found: &'r Found,
    options: VerifyOptions,
    work: W,
) -> Result<W::Output, Box<Unstarted>> {
    match found {
        Found::Published(r) => {
            let published = |k: &GameKind| k.about().format == Format::Published;
            let kind = options.game.filter(published).or_else(|| GameKind::ALL.into_iter().find(published));
            kind.and_then(|k| k.with_published_format(src, r, options.game.map(GameKind::about), work)).ok_or_else(
                || {
                    let why = problem(
                        ProblemKind::Undecided,
                        r.span.clone(),
                        "",
                        "no game of the published notation is known".into(),
                    );
                    let mut verdict = Verdict::new(r.index, r.span.clone(), None);
                    verdict.problems.push(why.clone());
                    Box::new(Unstarted { verdict, why })
                },
            )
        }
        Found::Common(r) => {
            let kind = common_kind(src, r, options.game);
            let unstarted = |why: Problem| {
                let mut verdict = common_verdict(src, r, kind.as_ref().ok().map(|k| k.about()));
                verdict.problems.push(why.clone());
                verdict.problems.sort_by_key(|p| p.span.start);
                verdict.status = status_of(&verdict.problems);
                Box::new(Unstarted { verdict, why })
            };
            let k = match &kind {
                Ok(k) => *k,
                Err(why) => return Err(unstarted(why.clone())),
            };
            struct Open<'s, 'r, 'a, W> {
                src: &'s str,
                record: &'r CommonRecord<'a>,
                about: &'static About,
                work: W,
            }
            impl<'r, W: WithFormat<'r>> WithCommonFormat for Open<'_, 'r, '_, W> {
                type Output = W::Output;
                fn run<G: CommonFormat>(self) -> W::Output {
                    let (src, record, about) = (self.src, self.record, self.about);
                    self.work.run(Common::<G>::named(src, record, about))
                }
            }
            k.with_common_format(Open { src, record: r, about: k.about(), work }).ok_or_else(|| {
                let tag = r.tag("Game").map_or(r.span.start..r.span.start, |t| t.value_span.clone());
                unstarted(problem(
                    ProblemKind::Syntax,
                    tag.clone(),
                    &src[tag],
                    format!(
                        "{k} records are written in their published notation (grammar.md), not in the common format"
                    ),
                ))
            })
        }
    }
}
