use super::*;

fn iccs(game: &GameRecord) -> Vec<String> {
    game.moves.iter().map(Move::to_string).collect()
}

const TWO_GAMES: &str = r#"[Game "Chinese Chess"]
[Event "Test \"cup\""]
[Red "A"]
[Black "B"]
[Result "1-0"]
[Format "ICCS"]

1. H2-E2 H9-G7 {a comment
over two lines} 2. H0-G2 (2. B0-C2 {side line (with parens)} B9-C7) I9-H9 $1
3. I0-H0 ; rest of the line is a comment H7-H3
B9-C7 4. h0h6!? 1-0

[Event "Second"]
[FEN "3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1"]
1. R9+9 0-1
"#;

#[test]
fn pgn_with_tags_comments_variations_and_two_games() {
    let games = read_games(TWO_GAMES).expect("reads");
    assert_eq!(games.len(), 2);
    let g = &games[0];
    assert_eq!(iccs(g), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "b9c7", "h0h6"]);
    assert_eq!(g.tag("event"), Some("Test \"cup\""));
    assert_eq!(g.tag("Red"), Some("A"));
    assert_eq!(g.result, Some(GameResult::RedWins));
    assert_eq!(g.start, Position::startpos());
    let g = &games[1];
    assert_eq!(g.start.to_fen(), "3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1");
    assert_eq!(iccs(g), ["a0a9"]);
    assert_eq!(g.result, Some(GameResult::BlackWins));
    assert_eq!(g.positions().len(), 2);
}

#[test]
fn wxf_and_chinese_movetext() {
    let wxf = "1.C2=5 H8+7 2. H2+3 R9=8 3. R1=2 C8+4 *";
    let zh = "1. 炮二平五 马８进７\n2. 马二进三 车９平８\n3. 车一平二 炮８进４ *";
    let a = read_games(wxf).expect("wxf");
    let b = read_games(zh).expect("chinese");
    assert_eq!(iccs(&a[0]), ["h2e2", "h9g7", "h0g2", "i9h9", "i0h0", "h7h3"]);
    assert_eq!(a[0].moves, b[0].moves);
    assert_eq!(a[0].result, Some(GameResult::Ongoing));
    // Mixed notations and traditional characters in one list.
    let mixed = read_games("h2e2 馬８進７ H2+3 i9h9").expect("mixed");
    assert_eq!(iccs(&mixed[0]), ["h2e2", "h9g7", "h0g2", "i9h9"]);
}

#[test]
fn plain_move_lists_with_a_start() {
    let fen = "3k5/9/9/9/9/9/9/9/4A4/R3K4 w - - 0 1";
    for text in [
        format!("{fen}\na0a9"),
        format!("fen {fen} moves a0a9"),
        format!("position fen {fen} moves a0a9"),
        format!("  \n{fen}\n1. R9+9\n"),
    ] {
        let games = read_games(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(games.len(), 1, "{text}");
        assert_eq!(games[0].start.to_fen(), fen, "{text}");
        assert_eq!(iccs(&games[0]), ["a0a9"], "{text}");
    }
    for text in ["startpos moves h2e2 h9g7", "position startpos moves h2e2 h9g7", "h2e2 h9g7", "1. h2e2 h9g7"] {
        let games = read_games(text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(games[0].start, Position::startpos());
        assert_eq!(iccs(&games[0]), ["h2e2", "h9g7"], "{text}");
        assert_eq!(games[0].result, None);
    }
    // A start with no moves is a game.
    let games = read_games("startpos").expect("startpos");
    assert!(games[0].moves.is_empty());
}

#[test]
fn annotation_marks_and_numbers_are_read() {
    let g = read_games("1.h2e2!? 1...h9g7?! 2.h0g2+ $14 i9h9").expect("reads");
    assert_eq!(iccs(&g[0]), ["h2e2", "h9g7", "h0g2", "i9h9"]);
}

fn error_of(text: &str) -> RecordError {
    match read_games(text) {
        Err(e) => e,
        Ok(g) => panic!("{text}: read {} games", g.len()),
    }
}

#[test]
fn errors_name_the_game_line_ply_and_text() {
    let e = error_of("[Event \"x\"]\n\n1. h2e2 h9g7\n2. h0g2 h9h8 *");
    assert_eq!((e.game, e.line, e.ply, e.token.as_str()), (1, 4, Some(4), "h9h8"));
    assert!(matches!(e.kind, RecordErrorKind::BadMove(NotationError::Illegal(_))), "{e}");
    assert_eq!(e.to_string(), "game 1, line 4, ply 4: move 'h9h8' is illegal: no piece on the from-square");

    let e = error_of(TWO_GAMES.replace("R9+9", "H2+3").as_str());
    assert_eq!((e.game, e.ply), (2, Some(1)));
    assert!(matches!(e.kind, RecordErrorKind::BadMove(NotationError::NoLegalMove)), "{e}");

    let e = error_of("1. h2e2 hello");
    assert_eq!((e.ply, e.token.as_str()), (Some(2), "hello"));
    assert!(matches!(e.kind, RecordErrorKind::BadMove(NotationError::Unreadable)));

    let e = error_of("[FEN \"rnbakabnr/9/9 w\"]\n1. h2e2");
    assert!(matches!(e.kind, RecordErrorKind::BadFen(_)), "{e}");
    assert_eq!(e.line, 1);
    let e = error_of("[FEN \"bad\"]");
    assert!(matches!(e.kind, RecordErrorKind::BadFen(_)), "{e}");
    let e = error_of("fen 9/9/9/9/9/9/9/9/9/9 w moves h2e2");
    assert!(matches!(e.kind, RecordErrorKind::BadFen(_)), "{e}");

    let e = error_of("1. h2e2 {never closed\n h9g7");
    assert_eq!((e.line, &e.kind), (1, &RecordErrorKind::Unclosed('{')));
    let e = error_of("1. h2e2 (h0g2 h9g7");
    assert_eq!(e.kind, RecordErrorKind::Unclosed('('));
    let e = error_of("[Event x]\n1. h2e2");
    assert_eq!(e.kind, RecordErrorKind::BadTag);
    let e = error_of("[Event \"open\n");
    assert_eq!(e.kind, RecordErrorKind::Unclosed('['));

    for empty in ["", "   \n", "{just a comment}", "% escape\n"] {
        assert_eq!(error_of(empty).kind, RecordErrorKind::NoGame, "{empty:?}");
    }
}

#[test]
fn san_ranks_are_decided_per_game() {
    // Game 1 in ranks 0..9, game 2 in 1..10 with a rank 10 (`Rb10`), game 3
    // in 1..10 without one: read 0..9 its first move fails (no cannon goes
    // from b2 to e3), so it is read 1..10. The same moves in each.
    let text = "[Event \"a\"]\n\n1. Cbe2 Hg7 2. Hc2 Hc7 3. Hi2 c5 4. Ri1 Rb9 *\n\n\
                [Event \"b\"]\n\n1. Cbe3 Hg8 2. Hc3 Hc8 3. Hi3 c6 4. Ri2 Rb10 *\n\n\
                [Event \"c\"]\n\n1. Cbe3 Hg8 2. Hc3 Hc8 *\n";
    let games = read_games(text).expect("reads");
    let moves = ["b2e2", "h9g7", "b0c2", "b9c7", "h0i2", "c6c5", "i0i1", "a9b9"];
    assert_eq!(iccs(&games[0]), moves);
    assert_eq!(iccs(&games[1]), moves);
    assert_eq!(iccs(&games[2]), moves[..4]);
    // A SAN move that fits nothing either way names itself; the error is
    // the one of the numbering that read more moves.
    let e = error_of("1. Cbe2 Hg7 2. E5e7 *");
    assert_eq!((e.ply, e.token.as_str()), (Some(3), "E5e7"));
    assert_eq!(e.to_string(), "game 1, line 1, ply 3: move 'E5e7' fits no legal move");
    let e = error_of("1. Cbe3 Hg8 2. Rh0 *");
    assert_eq!(e.to_string(), "game 1, line 1, ply 3: move 'Rh0' names rank 0, which is off the board in ranks 1..10");
}

#[test]
fn a_bad_game_does_not_stop_the_others() {
    let text = "[Event \"1\"]\n1. h2e2 xx *\n\n[Event \"2\"]\n1. h2e2 h9g7 *\n";
    let each = read_games_each(text);
    assert_eq!(each.len(), 2);
    assert!(each[0].is_err());
    assert_eq!(each[1].as_ref().map(|g| g.moves.len()), Ok(2));
}

#[test]
fn garbage_never_panics() {
    // Mutations of a real record: every byte replaced or cut in turn.
    let base = TWO_GAMES.as_bytes();
    let replacements = [b'{', b'}', b'(', b')', b'[', b']', b'"', b'\\', b'\n', b'1', b'-', b'=', b'%', 0xE7, 0xFF];
    for i in 0..base.len() {
        for &r in &replacements {
            let mut bytes = base.to_vec();
            bytes[i] = r;
            let text = String::from_utf8_lossy(&bytes);
            let _ = read_games_each(&text);
        }
        let _ = read_games_each(&String::from_utf8_lossy(&base[..i]));
    }
}
