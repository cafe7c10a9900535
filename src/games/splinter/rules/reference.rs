//! The engine's move settling as it was before it was made fast, kept as the reference that the
//! differential test (`tests/splinter_rules.rs`) compares the engine against, position by
//! position: every move simulated from scratch (once in `check`, again in `play_unchecked`, and
//! for every candidate of `legal_moves`) on a cloned board, groups found by a flood fill that
//! allocates and sorts. Not for use anywhere else: the engine is the one truth of the rules.

use super::{run_out, Effects, Illegal, Piece, Player, Splinter, SplinterMove, Standing, KING, MAX_CHOICES};
use crate::geometry::{Cell, Direction, Geometry};

impl Splinter {
    /// [`Game::legal_moves`](crate::game::Game::legal_moves) by the reference algorithm.
    #[doc(hidden)]
    pub fn reference_legal_moves(&self) -> Vec<SplinterMove> {
        if self.ending.is_some() {
            return Vec::new();
        }
        let g = self.geometry();
        let mut moves = Vec::new();
        for from in g.cells().filter(|&c| self.piece(c).is_some_and(|p| p.player == self.to_move)) {
            for d in KING {
                let Some(to) = g.step(from, d) else { continue };
                if self.returning(from, d).is_some() {
                    continue;
                }
                let s = Settling::slide(self, from, d);
                moves.extend(choice_lists(s, 0).iter().map(|keep| SplinterMove::keeping(from, to, keep)));
            }
        }
        moves
    }

    /// [`Splinter::effects`] by the reference algorithm.
    #[doc(hidden)]
    pub fn reference_effects(&self, m: SplinterMove) -> Result<Effects, Illegal> {
        let d = KING[self.checked_step(m)?.dir];
        let mut s = Settling::slide(self, m.from, d);
        let mut choices = m.choices();
        let mut made: Vec<Cell> = Vec::new();
        while let Some(tie) = s.next_tie() {
            let Some(cell) = choices.next() else {
                let mut like = format!("{}{}", self.label(m.from), self.label(m.to));
                for c in made.iter().chain([&tie.groups[0][0]]) {
                    like.push_str(&format!("/{}", self.label(*c)));
                }
                return Err(Illegal::ChoiceNeeded {
                    after: tie.after,
                    groups: tie.groups.len() as u8,
                    size: tie.groups[0].len() as u16,
                    like,
                });
            };
            let Some(group) = tie.groups.iter().find(|grp| grp.contains(&cell)) else {
                return Err(Illegal::NotInLargest { cell: self.label(cell) });
            };
            s.keep(group);
            made.push(cell);
        }
        if let Some(cell) = choices.next() {
            return Err(Illegal::NoChoice { cell: self.label(cell), ties: made.len() as u8 });
        }
        Ok(s.effects)
    }

    /// [`Game::play_unchecked`](crate::game::Game::play_unchecked) by the reference algorithm.
    #[doc(hidden)]
    pub fn reference_play_unchecked(&mut self, m: SplinterMove) {
        if self.ending.is_some() {
            return;
        }
        match self.own_step(m) {
            Some(dir) => {
                let mut s = Settling::slide(self, m.from, KING[dir]);
                let mut choices = m.choices();
                while let Some(tie) = s.next_tie() {
                    let wanted = choices.next();
                    let group = tie.groups.iter().find(|grp| wanted.is_some_and(|c| grp.contains(&c)));
                    s.keep(group.unwrap_or(&tie.groups[0]));
                }
                self.reference_commit(s);
            }
            None => self.pass_turn(),
        }
    }

    /// The first piece the step from `from` in direction `d` would bring back to the square it left
    /// on the previous move: the moved piece, then the pushed line in order.
    fn returning(&self, from: Cell, d: Direction) -> Option<(Cell, Cell)> {
        let g = self.geometry();
        let mut at = Some(from);
        while let Some(c) = at.filter(|&c| self.piece(c).is_some()) {
            let next = g.step(c, d);
            if let Some(n) = next.filter(|&n| self.left_from(c) == Some(n)) {
                return Some((c, n));
            }
            at = next;
        }
        None
    }

    /// Applies a settled move.
    fn reference_commit(&mut self, s: Settling) {
        let mover = self.to_move;
        let Settling { squares, standing, effects, moved, .. } = s;
        self.just_moved = moved.into_iter().filter(|&(now, _)| squares[now.0 as usize].is_some()).collect();
        self.counts = counts(&squares);
        self.one_group = groups(self.size as u16, &squares).len() <= 1;
        self.squares = squares;
        let before = self.standing;
        self.standing = standing;
        self.quiet = if effects.pieces_gone() > 0 { 0 } else { self.quiet.saturating_add(1) };
        self.finish_turn(mover, before);
    }
}

/// Every way to name the groups that stay, for a move settling from `s`: one list of squares per
/// legal token.
fn choice_lists(mut s: Settling, depth: usize) -> Vec<Vec<Cell>> {
    let Some(tie) = s.next_tie() else { return vec![Vec::new()] };
    if depth >= MAX_CHOICES {
        return Vec::new();
    }
    let mut lists = Vec::new();
    for group in &tie.groups {
        let mut t = s.clone();
        t.keep(group);
        let rest = choice_lists(t, depth + 1);
        for &c in group {
            lists.extend(rest.iter().map(|r| std::iter::once(c).chain(r.iter().copied()).collect()));
        }
    }
    lists
}

/// How many pieces of each type each player has on `squares`: `[player][kind]`.
fn counts(squares: &[Option<Piece>]) -> [[u8; 4]; 4] {
    let mut n = [[0u8; 4]; 4];
    for p in squares.iter().flatten() {
        n[p.player.index()][p.kind.index()] += 1;
    }
    n
}

/// The groups of pieces on `squares` (a `size` x `size` board), joined through sides and
/// corners, each in reading order, ordered by their first square.
fn groups(size: u16, squares: &[Option<Piece>]) -> Vec<Vec<Cell>> {
    let n = size as i32;
    let mut seen = vec![false; squares.len()];
    let mut out = Vec::new();
    let mut stack = Vec::new();
    for start in 0..squares.len() {
        if squares[start].is_none() || seen[start] {
            continue;
        }
        seen[start] = true;
        stack.push(start);
        let mut group = Vec::new();
        while let Some(c) = stack.pop() {
            group.push(Cell(c as u16));
            let (col, row) = (c as i32 % n, c as i32 / n);
            for (dc, dr) in KING.iter().map(|d| (d.dcol as i32, d.drow as i32)) {
                let (x, y) = (col + dc, row + dr);
                if x < 0 || y < 0 || x >= n || y >= n {
                    continue;
                }
                let next = (y * n + x) as usize;
                if squares[next].is_some() && !seen[next] {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        group.sort_unstable();
        out.push(group);
    }
    out
}

/// A tie the mover must decide: the equal largest groups, and who went out just before (nobody in
/// the first round).
struct Tie {
    groups: Vec<Vec<Cell>>,
    after: Vec<Player>,
}

/// A move being settled: the board after the slide, then round after round of groups and
/// eliminations.
#[derive(Clone)]
struct Settling {
    geometry: Geometry,
    players: u8,
    army: [[u8; 4]; 4],
    squares: Box<[Option<Piece>]>,
    standing: [Standing; 4],
    /// Types each player has run out of so far, so that each knockout is reported once.
    run_out: [[bool; 4]; 4],
    /// Pieces moved by the slide: where each stands and the square it left.
    moved: Vec<(Cell, Cell)>,
    effects: Effects,
    /// The players put out in the latest round.
    last_out: Vec<Player>,
    done: bool,
}

impl Settling {
    /// The board once the piece on `from` has stepped in direction `d` with the line in front of it.
    fn slide(pos: &Splinter, from: Cell, d: Direction) -> Settling {
        let g = pos.geometry();
        let mut squares = pos.squares.clone();
        let mut effects = Effects::default();
        let mut line = vec![from];
        let mut next = g.step(from, d);
        while let Some(c) = next.filter(|&c| squares[c.0 as usize].is_some()) {
            line.push(c);
            next = g.step(c, d);
        }
        let mut moved = Vec::with_capacity(line.len());
        for &c in line.iter().rev() {
            let piece = squares[c.0 as usize].take();
            match (g.step(c, d), piece) {
                (Some(to), _) => {
                    squares[to.0 as usize] = piece;
                    moved.push((to, c));
                }
                (None, Some(p)) => effects.pushed_off.push((g.label(c), p)),
                (None, None) => {}
            }
        }
        let mut run_out_now = [[false; 4]; 4];
        let before = counts(&pos.squares);
        for p in pos.player_list() {
            for k in run_out(&before, &pos.army, *p) {
                run_out_now[p.index()][k.index()] = true;
            }
        }
        Settling {
            geometry: g,
            players: pos.players,
            army: pos.army,
            squares,
            standing: pos.standing,
            run_out: run_out_now,
            moved,
            effects,
            last_out: Vec::new(),
            done: false,
        }
    }

    fn players_in(&self) -> impl Iterator<Item = Player> + '_ {
        Player::ALL[..self.players as usize].iter().copied().filter(|p| self.standing[p.index()] == Standing::In)
    }

    /// Runs the rounds until the mover has to choose between equal largest groups, or the move is
    /// settled (`None`).
    fn next_tie(&mut self) -> Option<Tie> {
        while !self.done {
            let groups = groups(self.geometry.width(), &self.squares);
            if groups.len() > 1 {
                let top = groups.iter().map(Vec::len).max().unwrap_or(0);
                let largest: Vec<Vec<Cell>> = groups.into_iter().filter(|g| g.len() == top).collect();
                if largest.len() > 1 {
                    return Some(Tie { groups: largest, after: self.last_out.clone() });
                }
                self.keep(&largest[0]);
            } else {
                self.eliminate();
            }
        }
        None
    }

    /// Keeps only the pieces of `group`, then takes the knockouts and eliminations that follow.
    fn keep(&mut self, group: &[Cell]) {
        for i in 0..self.squares.len() {
            if self.squares[i].is_some() && group.binary_search(&Cell(i as u16)).is_err() {
                let p = self.squares[i].take().expect("just checked");
                self.effects.splintered.push((self.geometry.label(Cell(i as u16)), p));
            }
        }
        self.eliminate();
    }

    /// Knockouts, and the players they put out; another round follows if anybody went out and two
    /// players or more are still in.
    fn eliminate(&mut self) {
        let mut going = Vec::new();
        let now = counts(&self.squares);
        for p in self.players_in().collect::<Vec<_>>() {
            for k in run_out(&now, &self.army, p) {
                if !std::mem::replace(&mut self.run_out[p.index()][k.index()], true) {
                    self.effects.knockouts.push((p, k));
                }
            }
            let knockouts = self.run_out[p.index()].iter().filter(|&&r| r).count() as u8;
            let pieces = now[p.index()].iter().sum::<u8>();
            if knockouts >= 2 || pieces == 0 {
                going.push((p, knockouts, pieces));
            }
        }
        for &(p, knockouts, pieces) in &going {
            self.standing[p.index()] = Standing::Out { knockouts, pieces };
            self.effects.out.push((p, knockouts, pieces));
        }
        if !going.is_empty() {
            for i in 0..self.squares.len() {
                if let Some(x) = self.squares[i].filter(|x| going.iter().any(|g| g.0 == x.player)) {
                    self.squares[i] = None;
                    self.effects.removed.push((self.geometry.label(Cell(i as u16)), x));
                }
            }
        }
        self.last_out = going.iter().map(|g| g.0).collect();
        self.done = going.is_empty() || self.players_in().count() < 2;
    }
}
