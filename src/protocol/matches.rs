//! `referee match`: games between engines over the protocol, every move judged. Each game starts
//! one process per seat; the seat to move is sent the position (`position start … moves …`) and
//! `go movetime MS`, and its answer is played only if it is legal. An illegal move, a crash, an
//! answer late by more than the margin or an answer that is no move forfeits the game. A game ends
//! by the rules, or is adjudicated as soon as a search of every continuation finds one result (the
//! claim search: the record's claim is then confirmed by `referee verify`). Every game is written
//! as a record in its game's notation, with tags (or, in the published notation, lines before the
//! title) naming the engines, the time control and how it ended.

use std::time::Duration;

use crate::game::{About, Format};
use crate::judge::Games;
use crate::verify::VerifyOptions;

use super::client::{seconds, Client, Fault};
use super::{held_start, Held};

/// The most positions the search that adjudicates a game may solve after a move: well within what
/// `referee verify` searches to confirm the claim (`--search-limit`, 250,000 by default).
pub const ADJUDICATION_POSITIONS: usize = 5_000;

/// One game to play: the board, the players and which engine sits where.
#[derive(Clone, Debug)]
pub struct Pairing {
    /// The game's number in the match, from 1.
    pub number: usize,
    /// The board size (the game's default if `None`).
    pub size: Option<u8>,
    /// The players (the game's default if `None`).
    pub players: Option<u8>,
    /// The engine of each seat, in turn order: an index into the match's engines.
    pub seats: Vec<usize>,
}

/// How a game ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ending {
    /// By the rules: the winner's seat, `None` when nobody won.
    Rules(Option<usize>),
    /// Adjudicated: every continuation gives this winner (`None`: nobody).
    Adjudicated(Option<usize>),
    /// The seat forfeited, for this reason.
    Forfeit(usize, String),
}

/// A game played.
#[derive(Clone, Debug)]
pub struct Played {
    /// What was played.
    pub pairing: Pairing,
    /// The moves, as written.
    pub moves: Vec<String>,
    /// How it ended.
    pub ending: Ending,
    /// Each seat's score: 1 for a win, 0 for a loss, a share of 1 when nobody won (or, past two
    /// players, among the seats that did not forfeit).
    pub scores: Vec<f64>,
    /// The game's record.
    pub record: String,
}

/// What every game of a match shares.
#[derive(Clone, Debug)]
pub struct Rules {
    /// The game.
    pub game: &'static About,
    /// Each engine's command line, split into words.
    pub engines: Vec<Vec<String>>,
    /// Each engine's name in the records and the crosstable.
    pub names: Vec<String>,
    /// The time an engine is told it has for a move (`go movetime`).
    pub movetime: Duration,
    /// How much later than `movetime` an answer may come before the move is forfeited (the pipes,
    /// the process's own clock).
    pub margin: Duration,
}

/// Plays one game of `rules` as `pairing` says.
pub fn play<S: Games>(games: S, rules: &Rules, pairing: Pairing) -> Result<Played, String> {
    let fresh = || held_start(games, rules.game.name, pairing.size, pairing.players);
    let mut held = fresh()?;
    let seats = held.players();
    if pairing.seats.len() != seats {
        return Err(format!("{} seats for a game of {seats} players", pairing.seats.len()));
    }
    let mut position = format!("start {}", rules.game.name);
    if let Some(size) = pairing.size {
        position += &format!(" size {size}");
    }
    if let Some(players) = pairing.players {
        position += &format!(" players {players}");
    }
    let wait = rules.movetime + rules.margin;
    let mut clients: Vec<Option<Client>> = (0..seats).map(|_| None).collect();
    let mut moves: Vec<String> = Vec::new();
    let ending = loop {
        if let Some(end) = ended(held.as_ref()) {
            break Ending::Rules(end);
        }
        if let Some(token) = held.decided(ADJUDICATION_POSITIONS) {
            break Ending::Adjudicated(token.split('-').position(|p| p == "1"));
        }
        let seat = held.mover();
        let engine = pairing.seats[seat];
        let asked = asked_move(&mut clients[seat], &rules.engines[engine], &position, &moves, rules.movetime, wait);
        match asked {
            Ok(m) => match held.play(&m) {
                Ok(()) => moves.push(m),
                Err(why) => break Ending::Forfeit(seat, format!("played {m}, which is illegal: {why}")),
            },
            Err(fault) => break Ending::Forfeit(seat, fault.to_string()),
        }
    };
    drop(clients);
    let scores = scores(seats, &ending);
    let record = record(games, rules, &pairing, &moves, &ending, held.as_ref())?;
    Ok(Played { pairing, moves, ending, scores, record })
}

/// The winner's seat once the game is over by its rules (`Some(None)`: nobody won).
fn ended(held: &dyn Held) -> Option<Option<usize>> {
    match held.result().as_str() {
        "*" => None,
        token => Some(token.split('-').position(|p| p == "1")),
    }
}

/// The move of the engine of a seat, started when it is first asked.
fn asked_move(
    client: &mut Option<Client>,
    argv: &[String],
    position: &str,
    moves: &[String],
    movetime: Duration,
    wait: Duration,
) -> Result<String, Fault> {
    if client.is_none() {
        *client = Some(Client::start(argv, wait.max(Duration::from_secs(10)))?);
    }
    let c = client.as_mut().expect("started");
    let at = if moves.is_empty() { position.to_string() } else { format!("{position} moves {}", moves.join(" ")) };
    c.position(&at, wait.max(Duration::from_secs(10)))?;
    c.go(movetime, wait)
}

/// Each seat's score after `ending`.
fn scores(seats: usize, ending: &Ending) -> Vec<f64> {
    let shared = |among: &[usize]| {
        (0..seats).map(|s| if among.contains(&s) { 1.0 / among.len() as f64 } else { 0.0 }).collect::<Vec<f64>>()
    };
    match ending {
        Ending::Rules(Some(w)) | Ending::Adjudicated(Some(w)) => shared(&[*w]),
        Ending::Rules(None) | Ending::Adjudicated(None) => shared(&(0..seats).collect::<Vec<_>>()),
        Ending::Forfeit(loser, _) => shared(&(0..seats).filter(|s| s != loser).collect::<Vec<_>>()),
    }
}

/// A tag's value as the common format can hold it: no `"`, no line break.
fn tag_value(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c == '"' {
                '\''
            } else if c.is_control() {
                ' '
            } else {
                c
            }
        })
        .collect()
}

/// The game's record: its moves written one by one into a new record of the game (so in its own
/// notation and layout), its tags, and its claim where the rules or the adjudication give one.
fn record<S: Games>(
    games: S,
    rules: &Rules,
    pairing: &Pairing,
    moves: &[String],
    ending: &Ending,
    end: &dyn Held,
) -> Result<String, String> {
    let mut text = crate::random::new_record_in(games, rules.game, pairing.size, pairing.players)?;
    let options = || VerifyOptions::default().with_games(games);
    for (ply, m) in moves.iter().enumerate() {
        text = crate::moves::play_move(&text, 1, ply, m, options())?.text;
    }
    let names = end.names();
    let seat = |s: usize| format!("{} ({})", names.get(s).copied().unwrap_or("?"), rules.names[pairing.seats[s]]);
    let (termination, winner) = match ending {
        Ending::Rules(w) => ("the game is over by its rules".to_string(), Some(*w)),
        Ending::Adjudicated(w) => (
            format!(
                "adjudicated: every continuation gives {}",
                end.decided(ADJUDICATION_POSITIONS).unwrap_or_default()
            ),
            Some(*w),
        ),
        Ending::Forfeit(s, why) => (format!("forfeit: {} loses: {why}", seat(*s)), None),
    };
    let mut tags: Vec<(String, String)> =
        vec![("Event".into(), "referee match".into()), ("Round".into(), pairing.number.to_string())];
    for (s, name) in names.iter().enumerate() {
        tags.push((name.to_string(), rules.names[pairing.seats[s]].clone()));
    }
    tags.push(("TimeControl".into(), format!("movetime {}", seconds(rules.movetime))));
    tags.push(("Termination".into(), termination));
    let players = names.len();
    match rules.game.format {
        Format::Common => {
            let claim = match winner {
                Some(w) => super::result_token(players, w),
                None => "*".to_string(),
            };
            // The tags after the record's own, before the blank line under them.
            let head_end = text.find("\n\n").map_or(0, |k| k + 1);
            let added: String = tags.iter().map(|(n, v)| format!("[{n} \"{}\"]\n", tag_value(v))).collect();
            text.insert_str(head_end, &added);
            if let Some(k) = text.rfind('*') {
                text.replace_range(k..k + 1, &claim);
            }
        }
        Format::Published => {
            // No tags in the published notation: lines of prose before the title.
            let lines: String = tags.iter().map(|(n, v)| format!("{n}: {}\n", v.replace('\n', " "))).collect();
            text.insert_str(0, &lines);
            if let Some(Some(w)) = winner {
                if !text.ends_with('\n') {
                    text.push('\n');
                }
                text += &format!("{} wins\n", names[w]);
            }
        }
    }
    Ok(text)
}

/// The standings of a match: per engine, its games, wins, draws, losses and points.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Standing {
    /// Games played.
    pub games: usize,
    /// Games won (a whole point).
    pub wins: usize,
    /// Games shared (nobody won, or shared after another's forfeit, or won by another seat of it
    /// and lost by another).
    pub draws: usize,
    /// Games lost.
    pub losses: usize,
    /// Games one of its seats forfeited.
    pub forfeits: usize,
    /// Points: a win 1, a share its part.
    pub points: f64,
}

/// Adds a game to the standings. An engine that holds several seats of a game (two engines in a
/// game of four) plays it once, scoring what its seats score together.
pub fn tally(standings: &mut [Standing], played: &Played) {
    for (engine, s) in standings.iter_mut().enumerate() {
        let seats: Vec<usize> =
            (0..played.pairing.seats.len()).filter(|&k| played.pairing.seats[k] == engine).collect();
        if seats.is_empty() {
            continue;
        }
        let score: f64 = seats.iter().map(|&k| played.scores[k]).sum::<f64>().min(1.0);
        s.games += 1;
        s.points += score;
        if score >= 1.0 {
            s.wins += 1;
        } else if score > 0.0 {
            s.draws += 1;
        } else {
            s.losses += 1;
        }
        if matches!(played.ending, Ending::Forfeit(f, _) if seats.contains(&f)) {
            s.forfeits += 1;
        }
    }
}

/// The Elo difference a score gives and its 95% interval (as cutechess-cli computes them, from the
/// spread of the games' results): `None` for the difference when the score is all or nothing, and
/// for a bound of the interval that passes all or nothing.
pub fn elo(s: &Standing) -> (Option<f64>, Option<f64>, Option<f64>) {
    if s.games == 0 {
        return (None, None, None);
    }
    let n = s.games as f64;
    let p = s.points / n;
    let of = |p: f64| (p > 0.0 && p < 1.0).then(|| -400.0 * (1.0 / p - 1.0).log10());
    let (w, d, l) = (s.wins as f64 / n, s.draws as f64 / n, s.losses as f64 / n);
    let variance = w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2);
    let dev = 1.959_964 * (variance / n).sqrt();
    (of(p), of(p - dev), of(p + dev))
}

/// The crosstable: a line per engine, best first.
pub fn crosstable(names: &[String], standings: &[Standing]) -> String {
    let mut order: Vec<usize> = (0..names.len()).collect();
    let share = |s: &Standing| if s.games == 0 { 0.0 } else { s.points / s.games as f64 };
    order.sort_by(|&a, &b| share(&standings[b]).total_cmp(&share(&standings[a])));
    let width = names.iter().map(|n| n.chars().count()).max().unwrap_or(6).max(6);
    let mut out = format!(
        "{:>2}  {:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>8}  {:>6}  {}\n",
        "#", "engine", "games", "wins", "draws", "losses", "forfeits", "score", "Elo"
    );
    for (rank, &e) in order.iter().enumerate() {
        let s = &standings[e];
        let pct = if s.games == 0 { 0.0 } else { 100.0 * s.points / s.games as f64 };
        let bound = |b: Option<f64>, infinite: &str| b.map_or_else(|| infinite.to_string(), |b| format!("{b:+.0}"));
        let rating = match elo(s) {
            (Some(d), Some(lo), Some(hi)) => format!("{d:+.0} ± {:.0}", (hi - lo) / 2.0),
            (Some(d), lo, hi) => format!("{d:+.0} (95%: {} to {})", bound(lo, "-∞"), bound(hi, "+∞")),
            (None, ..) if s.games > 0 && s.points >= s.games as f64 => "+∞ (every game won)".to_string(),
            (None, ..) if s.games > 0 => "-∞ (no point)".to_string(),
            (None, ..) => String::new(),
        };
        out += &format!(
            "{:>2}  {:<width$}  {:>5}  {:>4}  {:>5}  {:>6}  {:>8}  {:>5.1}%  {}\n",
            rank + 1,
            names[e],
            s.games,
            s.wins,
            s.draws,
            s.losses,
            s.forfeits,
            pct,
            rating
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 60 wins, 20 draws and 20 losses in 100 games: 70%, +147 Elo ± 66, as cutechess-cli says of
    /// such a score; all or nothing has no finite difference, and the crosstable says so.
    #[test]
    fn elo_and_its_interval_are_cutechess_s() {
        let s = Standing { games: 100, wins: 60, draws: 20, losses: 20, forfeits: 0, points: 70.0 };
        let (d, lo, hi) = elo(&s);
        let near = |a: Option<f64>, b: f64| a.is_some_and(|a| (a - b).abs() < 0.01);
        assert!(near(d, 147.19) && near(lo, 86.23) && near(hi, 218.25), "{d:?} {lo:?} {hi:?}");
        let all = Standing { games: 4, wins: 4, points: 4.0, ..Standing::default() };
        assert_eq!(elo(&all), (None, None, None));
        let most = Standing { games: 100, wins: 97, losses: 3, points: 97.0, ..Standing::default() };
        let table = crosstable(&["search".into(), "random".into(), "none".into()], &[most, s, all]);
        assert_eq!(
            table,
            " #  engine  games  wins  draws  losses  forfeits   score  Elo\n\
             \x201  none        4     4      0       0         0  100.0%  +∞ (every game won)\n\
             \x202  search    100    97      0       3         0   97.0%  +604 (95%: +468 to +∞)\n\
             \x203  random    100    60     20      20         0   70.0%  +147 ± 66\n"
        );
    }
}
