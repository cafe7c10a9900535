//! `referee.Position`: a position of any game, held behind one interface as the engine protocol
//! holds it ([`referee::protocol::Held`]), with what Python asks of it besides: a copy, the points,
//! a picture.

use std::sync::{Mutex, MutexGuard, TryLockError};

use pyo3::exceptions::{PyIndexError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyIterator, PyList, PySlice, PyString};
use rustc_hash::FxHashMap;

use referee::format::Recorded;
use referee::game::code::CodeError as Fault;
use referee::game::About;
use referee::judge::{Games, Registry};
use referee::perft::{with_position_in, WithPosition};
use referee::protocol::Held;
use referee::render::svg::{svg, StyleName, SvgOptions};
use referee::verify::VerifyOptions;

use crate::errors::{code_error, illegal_move};

/// A position of any game: [`Held`] (the legal moves as written, play by the written move, perft,
/// code, result, players, mover) and what the protocol does not need.
pub trait Pos: Held {
    /// A copy, for `play` (a new position) and `push` (the one before kept).
    fn boxed(&self) -> Box<dyn Pos>;
    /// The legal moves as written, each once, in the engine's order (as [`Held::moves`], without
    /// its sifting for repeats where the notation writes no two moves alike).
    fn written_moves(&self) -> Vec<String>;
    /// [`Pos::written_moves`] one after the other at the end of `all`, where each ends at the end
    /// of `ends`: one buffer for all of them, which Python's strings are made from.
    fn write_moves(&self, all: &mut String, ends: &mut Vec<usize>);
    /// Whether the game is over.
    fn over(&self) -> bool;
    /// Each player's points, in turn order ([`Recorded::points`]).
    fn points(&self) -> Vec<f64>;
    /// The picture of the position after `ply` moves, as `referee show --format svg` draws one.
    fn picture(&self, ply: usize, options: &SvgOptions) -> String;
    /// The position as a text diagram, as records draw it.
    fn diagram(&self) -> String;
    /// Which game it is.
    fn game(&self) -> &'static About;
}

impl<G: Recorded> Pos for G {
    fn boxed(&self) -> Box<dyn Pos> {
        Box::new(self.clone())
    }

    fn written_moves(&self) -> Vec<String> {
        let (mut all, mut ends) = (String::new(), Vec::new());
        self.write_moves(&mut all, &mut ends);
        let mut start = 0;
        ends.into_iter()
            .map(|end| {
                let w = all[start..end].to_string();
                start = end;
                w
            })
            .collect()
    }

    fn write_moves(&self, all: &mut String, ends: &mut Vec<usize>) {
        if G::WRITES_APART {
            let moves = self.distinct_moves();
            all.reserve(moves.len() * 6);
            ends.reserve(moves.len());
            for m in moves {
                self.write_move_into(m, all);
                ends.push(all.len());
            }
        } else {
            for w in Held::moves(self) {
                all.push_str(&w);
                ends.push(all.len());
            }
        }
    }

    fn over(&self) -> bool {
        self.is_over()
    }

    fn points(&self) -> Vec<f64> {
        G::points(self)
    }

    fn picture(&self, ply: usize, options: &SvgOptions) -> String {
        svg(&referee::picture::position_scene(self, ply), options)
    }

    fn diagram(&self) -> String {
        referee::render::ascii::diagram(self)
    }

    fn game(&self) -> &'static About {
        self.about()
    }
}

/// The position of a code, of any of the registry's games.
pub fn from_code(code: &str) -> Result<Box<dyn Pos>, Fault> {
    struct Hold;
    impl WithPosition for Hold {
        type Output = Box<dyn Pos>;
        fn run<G: Recorded>(self, position: G) -> Box<dyn Pos> {
            Box::new(position)
        }
    }
    with_position_in(Registry, code, Hold)
}

/// The game named `name` (its name, title or an alias, in any case), or why there is none.
pub fn game_named(name: &str) -> PyResult<&'static About> {
    let abouts = Registry.abouts();
    abouts.iter().copied().find(|a| a.is_named(name)).ok_or_else(|| {
        let known: Vec<&str> = abouts.iter().map(|a| a.name).collect();
        PyValueError::new_err(format!("no game is named {name}: referee knows {}", known.join(", ")))
    })
}

/// The start of `game` on a board of `size` for `players` (the game's defaults if `None`), as
/// `referee::protocol::held_start` makes it: from the start of a new record of the game.
fn start(game: &str, size: Option<u8>, players: Option<u8>) -> PyResult<Box<dyn Pos>> {
    let about = game_named(game)?;
    let record = referee::random::new_record_in(Registry, about, size, players).map_err(PyValueError::new_err)?;
    let options = VerifyOptions::default();
    let start = referee::record_moves(&record, 1, options).map_err(|(_, why)| PyValueError::new_err(why))?.start_code;
    from_code(&start).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// The Python string of each move text `legal_moves` has given, kept to be given again: a game's
/// positions share most of their moves, and Python's strings cannot change, so one string may
/// stand in every list. Measured on Quarod 8x8 (188 legal moves, 2026-11-28): `legal_moves()`
/// took 7.3 µs making every string, 4.5 µs finding them here; a Python loop of `legal_moves()`
/// and `play()` went from 215,000 to 300,000 moves a second.
static MOVE_STRINGS: Mutex<Option<FxHashMap<Box<str>, Py<PyString>>>> = Mutex::new(None);

/// Most move strings kept, past which they are made afresh: twenty random games of Quarod on its
/// largest board (26x26) write 5,202 different moves, of Petrify 10x10 2,511.
const MAX_MOVE_STRINGS: usize = 1 << 16;

/// The legal moves of a position as `Position.legal_moves()` gives them: the engine's written
/// moves, each made a Python string when it is asked for. A loop that picks one move of a hundred
/// (`random.choice`, `moves[0]`) makes one string, not a hundred: python-chess's `legal_moves` is
/// lazy for the same reason.
#[pyclass(module = "referee", name = "Moves", frozen, sequence)]
pub struct Moves {
    /// Every move's text, one after another.
    all: String,
    /// Where each move's text ends in `all`.
    ends: Vec<usize>,
}

impl Moves {
    fn text(&self, k: usize) -> &str {
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.all[start..self.ends[k]]
    }

    /// Every move as a list, its strings found among those given before ([`MOVE_STRINGS`]).
    fn list<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        // Only tried: the strings are made while it is held, and Python code that runs then (a
        // finaliser) may ask for legal moves too, on this thread or, the GIL let go, on another.
        let mut held = match MOVE_STRINGS.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::Poisoned(e)) => Some(e.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        };
        let mut strings = held.as_mut().map(|g| g.get_or_insert_with(FxHashMap::default));
        PyList::new(
            py,
            (0..self.ends.len()).map(|k| {
                let w = self.text(k);
                let Some(strings) = strings.as_mut() else { return PyString::new(py, w) };
                match strings.get(w) {
                    Some(s) => s.bind(py).clone(),
                    None => {
                        let s = PyString::new(py, w);
                        if strings.len() < MAX_MOVE_STRINGS {
                            strings.insert(w.into(), s.clone().unbind());
                        }
                        s
                    }
                }
            }),
        )
    }

    /// The moves of `other`, a `Moves` or any sequence of strings; None when it is neither.
    fn texts_of(other: &Bound<'_, PyAny>) -> Option<Vec<String>> {
        if let Ok(moves) = other.cast::<Moves>() {
            let moves = moves.get();
            return Some((0..moves.ends.len()).map(|k| moves.text(k).to_string()).collect());
        }
        if other.is_instance_of::<PyString>() {
            return None;
        }
        other.extract::<Vec<String>>().ok()
    }
}

#[pymethods]
impl Moves {
    fn __len__(&self) -> usize {
        self.ends.len()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        if let Ok(slice) = index.cast::<PySlice>() {
            return self.list(py)?.as_any().get_item(slice);
        }
        let k: isize = index.extract()?;
        let n = self.ends.len() as isize;
        let at = if k < 0 { k + n } else { k };
        if !(0..n).contains(&at) {
            return Err(PyIndexError::new_err("move index out of range"));
        }
        Ok(PyString::new(py, self.text(at as usize)).into_any())
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        self.list(py)?.as_any().try_iter()
    }

    fn __contains__(&self, text: &Bound<'_, PyAny>) -> bool {
        let Ok(text) = text.extract::<String>() else { return false };
        (0..self.ends.len()).any(|k| self.text(k) == text)
    }

    /// The place of `move` among the moves; ValueError when it is not one of them.
    #[pyo3(name = "index")]
    fn index_of(&self, r#move: &str) -> PyResult<usize> {
        (0..self.ends.len())
            .find(|&k| self.text(k) == r#move)
            .ok_or_else(|| PyValueError::new_err(format!("{move:?} is not a legal move here")))
    }

    /// How many times `move` is among the moves: 0 or 1.
    fn count(&self, r#move: &str) -> usize {
        (0..self.ends.len()).filter(|&k| self.text(k) == r#move).count()
    }

    /// Equal to another `Moves`, or to a list (or tuple) of the same moves in the same order.
    fn __eq__<'py>(&self, py: Python<'py>, other: &Bound<'py, PyAny>) -> Bound<'py, PyAny> {
        match Self::texts_of(other) {
            Some(texts) => {
                let same = texts.len() == self.ends.len() && texts.iter().enumerate().all(|(k, t)| self.text(k) == t);
                PyBool::new(py, same).to_owned().into_any()
            }
            None => py.NotImplemented().into_bound(py),
        }
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!("Moves({})", self.list(py)?.repr()?))
    }
}

/// A position of any of the six games, from its start or its position code.
///
/// Moves are strings, written as the game's notation writes them (as `referee moves CODE` lists
/// them). `play` gives a new position; `push` and `pop` change this one in place, keeping the
/// positions before on a stack.
#[pyclass(module = "referee", name = "Position", frozen)]
pub struct Position {
    /// Behind a lock: a game's engine is `Send`, and a Python object may be used from any thread.
    inner: Mutex<Inner>,
}

struct Inner {
    pos: Box<dyn Pos>,
    /// The positions before each move pushed, with the move.
    stack: Vec<(Box<dyn Pos>, String)>,
    /// Moves played since the start or the code this position came from (a picture's caption).
    ply: usize,
}

impl Position {
    /// A position reached after `ply` moves, with no move pushed.
    pub fn with_ply(pos: Box<dyn Pos>, ply: usize) -> Position {
        Position { inner: Mutex::new(Inner { pos, stack: Vec::new(), ply }) }
    }

    /// The position, locked. Nothing calls into Python while it is held: Python code that ran
    /// then (a finaliser the garbage collector calls) could let another thread take the GIL and
    /// wait for the lock, while this one waits for the GIL.
    fn inner(&self) -> MutexGuard<'_, Inner> {
        // A panic cannot leave a position half played: play works on a copy, or is undone.
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A move refused, with what its error says of the position: taken while the position is locked,
/// raised once it is not.
struct Refused {
    why: String,
    legal: Vec<String>,
    code: String,
}

impl Refused {
    fn of(pos: &dyn Pos, why: String) -> Refused {
        Refused { why, legal: pos.written_moves(), code: pos.code() }
    }

    fn raise(self, py: Python<'_>, written: &str) -> PyErr {
        illegal_move(py, written, &self.why, self.legal, &self.code)
    }
}

#[pymethods]
impl Position {
    /// The start position of `game` (its name, as `--game` takes it: quadraphages, hexaphages,
    /// quarod, petrify, vadrantir, splinter), on a board of `size` for `players` players (the
    /// game's defaults when None).
    #[staticmethod]
    #[pyo3(signature = (game, size=None, players=None))]
    fn start(game: &str, size: Option<u8>, players: Option<u8>) -> PyResult<Position> {
        Ok(Position::with_ply(start(game, size, players)?, 0))
    }

    /// The position a position code describes (`referee show --format code` writes one).
    /// Raises CodeError, saying where the code goes wrong, when it describes none.
    #[staticmethod]
    fn from_code(py: Python<'_>, code: &str) -> PyResult<Position> {
        match from_code(code) {
            Ok(pos) => Ok(Position::with_ply(pos, 0)),
            Err(e) => Err(code_error(py, code, &e)),
        }
    }

    /// The legal moves, each once, as the notation writes them, in the engine's order: a `Moves`
    /// sequence (a list's reading: `len`, indexing, slicing, `in`, iteration, equal to the list of
    /// the same moves), whose strings are made when they are asked for.
    fn legal_moves(&self) -> Moves {
        let (mut all, mut ends) = (String::new(), Vec::new());
        self.inner().pos.write_moves(&mut all, &mut ends);
        Moves { all, ends }
    }

    /// The position after `move`, a new one (this one is left as it is).
    /// Raises IllegalMoveError when `move` is not a legal move here.
    fn play(&self, py: Python<'_>, r#move: &str) -> PyResult<Position> {
        let played = {
            let inner = self.inner();
            let mut next = inner.pos.boxed();
            match next.play(r#move) {
                Ok(()) => Ok(Position::with_ply(next, inner.ply + 1)),
                Err(why) => Err(Refused::of(&*inner.pos, why)),
            }
        };
        played.map_err(|refused| refused.raise(py, r#move))
    }

    /// Plays `move` on this position, keeping the position before for `pop`.
    /// Raises IllegalMoveError (and changes nothing) when `move` is not a legal move here.
    fn push(&self, py: Python<'_>, r#move: &str) -> PyResult<()> {
        let pushed = {
            let mut inner = self.inner();
            let before = inner.pos.boxed();
            match inner.pos.play(r#move) {
                Ok(()) => {
                    inner.stack.push((before, r#move.to_string()));
                    inner.ply += 1;
                    Ok(())
                }
                Err(why) => {
                    inner.pos = before;
                    Err(Refused::of(&*inner.pos, why))
                }
            }
        };
        pushed.map_err(|refused| refused.raise(py, r#move))
    }

    /// Takes back the last move pushed and returns it. Raises IndexError when none was.
    fn pop(&self) -> PyResult<String> {
        let mut inner = self.inner();
        match inner.stack.pop() {
            Some((before, m)) => {
                inner.pos = before;
                inner.ply -= 1;
                Ok(m)
            }
            None => Err(pyo3::exceptions::PyIndexError::new_err("pop from a position with no move pushed")),
        }
    }

    /// The moves pushed and not popped, in order.
    #[getter]
    fn move_stack(&self) -> Vec<String> {
        self.inner().stack.iter().map(|(_, m)| m.clone()).collect()
    }

    /// Whether the game is over.
    fn is_over(&self) -> bool {
        self.inner().pos.over()
    }

    /// The result once the game is over, as a record's result token writes it ("1-0", "0-1",
    /// "0-0-1-0"; all zeros when nobody won); None while it goes on.
    fn outcome(&self) -> Option<String> {
        let inner = self.inner();
        inner.pos.over().then(|| inner.pos.result())
    }

    /// The position's code: `Position.from_code(p.code) == p`.
    #[getter]
    fn code(&self) -> String {
        self.inner().pos.code()
    }

    /// The game's name (quarod, petrify, ...).
    #[getter]
    fn game(&self) -> &'static str {
        self.inner().pos.game().name
    }

    /// The leaves of the move tree `depth` moves below this position (1 for depth 0), counted
    /// without the GIL.
    fn perft(&self, py: Python<'_>, depth: u32) -> PyResult<u64> {
        if depth > referee::protocol::MAX_DEPTH {
            return Err(PyValueError::new_err(format!(
                "the depth is a number from 0 to {}, not {depth}",
                referee::protocol::MAX_DEPTH
            )));
        }
        let pos = self.inner().pos.boxed();
        Ok(py.detach(move || pos.perft(depth)))
    }

    /// The player to move: an index into `players`.
    #[getter]
    fn to_move(&self) -> usize {
        self.inner().pos.mover()
    }

    /// The players' names (colours) in turn order from the start, as records name them.
    #[getter]
    fn players(&self) -> Vec<&'static str> {
        self.inner().pos.names().to_vec()
    }

    /// Each player's points where the game stands (marks, territory, pieces), by name, in turn
    /// order: what decides the game at its end.
    fn score<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let (names, points) = {
            let inner = self.inner();
            (inner.pos.names(), inner.pos.points())
        };
        let dict = PyDict::new(py);
        for (name, points) in names.iter().zip(points) {
            dict.set_item(name, points)?;
        }
        Ok(dict)
    }

    /// The position as an SVG picture, as `referee show --format svg` draws one: `width` in
    /// pixels, `style` light, dark or print, column letters and row numbers, a caption under the
    /// board (game, ply, side to move, score).
    #[pyo3(signature = (width=480, style="light", coordinates=true, caption=true))]
    fn svg(&self, width: u32, style: &str, coordinates: bool, caption: bool) -> PyResult<String> {
        let style = StyleName::ALL.into_iter().find(|s| s.name() == style).ok_or_else(|| {
            let names: Vec<&str> = StyleName::ALL.iter().map(|s| s.name()).collect();
            PyValueError::new_err(format!("no style is named {style}: one of {}", names.join(", ")))
        })?;
        let inner = self.inner();
        Ok(inner.pos.picture(inner.ply, &SvgOptions { width, style, coordinates, caption }))
    }

    /// The picture a notebook shows.
    fn _repr_svg_(&self) -> String {
        let inner = self.inner();
        inner.pos.picture(inner.ply, &SvgOptions::default())
    }

    fn __str__(&self) -> String {
        self.inner().pos.diagram()
    }

    fn __repr__(&self) -> String {
        format!("Position.from_code('{}')", self.inner().pos.code())
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.cast::<Position>() else { return false };
        let other = other.get();
        if std::ptr::eq(other, self) {
            return true;
        }
        let code = other.inner().pos.code();
        code == self.inner().pos.code()
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.inner().pos.code().hash(&mut h);
        h.finish()
    }

    /// A copy, with its own stack of moves pushed.
    fn copy(&self) -> Position {
        let inner = self.inner();
        let stack = inner.stack.iter().map(|(p, m)| (p.boxed(), m.clone())).collect();
        Position { inner: Mutex::new(Inner { pos: inner.pos.boxed(), stack, ply: inner.ply }) }
    }

    fn __copy__(&self) -> Position {
        self.copy()
    }

    /// Pickled as its code (the moves pushed are not kept): `Position.from_code(code)`.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        Ok((py.get_type::<Position>().getattr("from_code")?, (self.inner().pos.code(),)))
    }
}
