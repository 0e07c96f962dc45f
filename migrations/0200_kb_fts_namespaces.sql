-- Knowledge search independent of the rest of the database (docs/storage.md#full-text-index).
--
-- Every collection gets a short namespace (kb_collections.fts_ns: its rowid in superscript
-- digits, characters NFKC maps away, so no indexed token can start with one), and the FTS
-- row of a collection node indexes its tokens with that prefix: nodes.fts_tokens. A search
-- of one collection then reads only that collection's postings, and bm25's document
-- frequency of a term is the collection's own. Memory, summaries and every other row keep
-- their tokens as they are (fts_ns NULL), so a database holding one collection ranks exactly
-- as before. The prefix goes before every part FTS5's unicode61 tokenizer splits a token
-- into (at the separators a word segment may contain), so a dotted or hyphenated token
-- stays one namespaced phrase; src/domain/text/fts-namespace.ts builds the same text.
--
-- kb_fts_df counts, per namespace, the FTS rows holding each application token (and, under
-- the empty token, the namespace's rows), kept by triggers: the search keeps the rarest query
-- tokens within a postings budget without asking FTS, and CJK frequencies are read from it.
--
-- nodes_fts is rebuilt from nodes (memory and knowledge alike) in seq ranges, each statement
-- far below D1's per-query time limit.

ALTER TABLE kb_collections ADD COLUMN fts_ns TEXT;
UPDATE kb_collections SET fts_ns = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(CAST(rowid AS TEXT), '0', '⁰'), '1', '¹'), '2', '²'), '3', '³'), '4', '⁴'), '5', '⁵'), '6', '⁶'), '7', '⁷'), '8', '⁸'), '9', '⁹');
CREATE UNIQUE INDEX kb_collections_fts_ns ON kb_collections (fts_ns);
CREATE TRIGGER kb_collections_fts_ns AFTER INSERT ON kb_collections BEGIN
  UPDATE kb_collections SET fts_ns = replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(CAST(rowid AS TEXT), '0', '⁰'), '1', '¹'), '2', '²'), '3', '³'), '4', '⁴'), '5', '⁵'), '6', '⁶'), '7', '⁷'), '8', '⁸'), '9', '⁹') WHERE rowid = new.rowid;
END;

ALTER TABLE nodes ADD COLUMN fts_ns TEXT;
UPDATE nodes SET fts_ns = (SELECT c.fts_ns FROM kb_collections c WHERE c.name = nodes.scope_id)
  WHERE scope_type = 'collection';
-- What nodes_fts indexes: the tokens, namespaced for collection rows.
ALTER TABLE nodes ADD COLUMN fts_tokens TEXT GENERATED ALWAYS AS (
  CASE WHEN fts_ns IS NULL THEN retrieval_tokens ELSE fts_ns || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(retrieval_tokens, ' ', ' ' || fts_ns), '.', ' ' || fts_ns), '''', ' ' || fts_ns), ',', ' ' || fts_ns), ':', ' ' || fts_ns), ';', ' ' || fts_ns), '_', ' ' || fts_ns), '"', ' ' || fts_ns), '-', ' ' || fts_ns), '·', ' ' || fts_ns), '‘', ' ' || fts_ns), '’', ' ' || fts_ns), '‧', ' ' || fts_ns), '׳', ' ' || fts_ns), '״', ' ' || fts_ns) END
) VIRTUAL;

DROP TRIGGER nodes_fts_ai;
DROP TRIGGER nodes_fts_ad;
DROP TRIGGER nodes_fts_au;
DROP TABLE nodes_fts;
CREATE VIRTUAL TABLE nodes_fts USING fts5(
  fts_tokens, scope_token, content = 'nodes', content_rowid = 'seq', tokenize = 'porter unicode61 remove_diacritics 2'
);
INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('automerge', 2);
INSERT INTO nodes_fts (nodes_fts, rank) VALUES ('crisismerge', 4);
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 0 AND seq <= 20000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 20000 AND seq <= 40000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 40000 AND seq <= 60000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 60000 AND seq <= 80000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 80000 AND seq <= 100000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 100000 AND seq <= 120000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 120000 AND seq <= 140000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 140000 AND seq <= 160000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 160000 AND seq <= 180000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 180000 AND seq <= 200000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 200000 AND seq <= 220000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 220000 AND seq <= 240000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 240000 AND seq <= 260000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 260000 AND seq <= 280000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 280000 AND seq <= 300000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 300000 AND seq <= 320000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 320000 AND seq <= 340000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 340000 AND seq <= 360000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 360000 AND seq <= 380000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 380000 AND seq <= 400000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 400000 AND seq <= 420000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 420000 AND seq <= 440000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 440000 AND seq <= 460000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 460000 AND seq <= 480000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 480000 AND seq <= 500000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 500000 AND seq <= 520000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 520000 AND seq <= 540000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 540000 AND seq <= 560000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 560000 AND seq <= 580000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 580000 AND seq <= 600000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 600000 AND seq <= 620000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 620000 AND seq <= 640000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 640000 AND seq <= 660000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 660000 AND seq <= 680000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 680000 AND seq <= 700000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 700000 AND seq <= 720000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 720000 AND seq <= 740000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 740000 AND seq <= 760000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 760000 AND seq <= 780000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 780000 AND seq <= 800000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 800000 AND seq <= 820000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 820000 AND seq <= 840000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 840000 AND seq <= 860000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 860000 AND seq <= 880000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 880000 AND seq <= 900000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 900000 AND seq <= 920000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 920000 AND seq <= 940000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 940000 AND seq <= 960000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 960000 AND seq <= 980000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 980000 AND seq <= 1000000;
INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) SELECT seq, fts_tokens, scope_token FROM nodes WHERE seq > 1000000;
CREATE TRIGGER nodes_fts_ai AFTER INSERT ON nodes BEGIN
  INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) VALUES (new.seq, new.fts_tokens, new.scope_token);
END;
CREATE TRIGGER nodes_fts_ad AFTER DELETE ON nodes BEGIN
  INSERT INTO nodes_fts (nodes_fts, rowid, fts_tokens, scope_token) VALUES ('delete', old.seq, old.fts_tokens, old.scope_token);
END;
CREATE TRIGGER nodes_fts_au AFTER UPDATE OF retrieval_tokens, scope_type, scope_id, fts_ns ON nodes BEGIN
  INSERT INTO nodes_fts (nodes_fts, rowid, fts_tokens, scope_token) VALUES ('delete', old.seq, old.fts_tokens, old.scope_token);
  INSERT INTO nodes_fts (rowid, fts_tokens, scope_token) VALUES (new.seq, new.fts_tokens, new.scope_token);
END;

CREATE TABLE kb_fts_df (
  ns    TEXT NOT NULL,
  token TEXT NOT NULL,
  df    INTEGER NOT NULL,
  PRIMARY KEY (ns, token)
) WITHOUT ROWID;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 0 AND seq <= 20000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 20000 AND seq <= 40000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 40000 AND seq <= 60000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 60000 AND seq <= 80000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 80000 AND seq <= 100000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 100000 AND seq <= 120000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 120000 AND seq <= 140000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 140000 AND seq <= 160000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 160000 AND seq <= 180000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 180000 AND seq <= 200000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 200000 AND seq <= 220000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 220000 AND seq <= 240000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 240000 AND seq <= 260000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 260000 AND seq <= 280000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 280000 AND seq <= 300000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 300000 AND seq <= 320000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 320000 AND seq <= 340000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 340000 AND seq <= 360000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 360000 AND seq <= 380000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 380000 AND seq <= 400000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 400000 AND seq <= 420000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 420000 AND seq <= 440000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 440000 AND seq <= 460000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 460000 AND seq <= 480000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 480000 AND seq <= 500000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 500000 AND seq <= 520000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 520000 AND seq <= 540000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 540000 AND seq <= 560000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 560000 AND seq <= 580000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 580000 AND seq <= 600000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 600000 AND seq <= 620000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 620000 AND seq <= 640000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 640000 AND seq <= 660000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 660000 AND seq <= 680000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 680000 AND seq <= 700000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 700000 AND seq <= 720000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 720000 AND seq <= 740000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 740000 AND seq <= 760000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 760000 AND seq <= 780000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 780000 AND seq <= 800000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 800000 AND seq <= 820000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 820000 AND seq <= 840000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 840000 AND seq <= 860000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 860000 AND seq <= 880000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 880000 AND seq <= 900000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 900000 AND seq <= 920000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 920000 AND seq <= 940000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 940000 AND seq <= 960000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 960000 AND seq <= 980000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 980000 AND seq <= 1000000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, t.value, count(DISTINCT seq) FROM nodes, json_each(CASE WHEN json_valid('["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) AS t
  WHERE fts_ns IS NOT NULL AND t.value <> '' AND seq > 1000000 GROUP BY fts_ns, t.value
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
INSERT INTO kb_fts_df (ns, token, df)
  SELECT fts_ns, '', count(*) FROM nodes WHERE fts_ns IS NOT NULL GROUP BY fts_ns
  ON CONFLICT (ns, token) DO UPDATE SET df = df + excluded.df;
CREATE TRIGGER kb_fts_df_ai AFTER INSERT ON nodes WHEN new.fts_ns IS NOT NULL BEGIN
  INSERT INTO kb_fts_df (ns, token, df) SELECT new.fts_ns, value, 1 FROM (SELECT value FROM json_each(CASE WHEN json_valid('["' || replace(replace(replace(new.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(new.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) UNION SELECT '') WHERE true
    ON CONFLICT (ns, token) DO UPDATE SET df = df + 1;
END;
CREATE TRIGGER kb_fts_df_ad AFTER DELETE ON nodes WHEN old.fts_ns IS NOT NULL BEGIN
  UPDATE kb_fts_df SET df = df - 1 WHERE ns = old.fts_ns AND token IN (SELECT value FROM json_each(CASE WHEN json_valid('["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) UNION SELECT '');
  DELETE FROM kb_fts_df WHERE ns = old.fts_ns AND df <= 0 AND token IN (SELECT value FROM json_each(CASE WHEN json_valid('["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) UNION SELECT '');
END;
CREATE TRIGGER kb_fts_df_au AFTER UPDATE OF retrieval_tokens, fts_ns ON nodes BEGIN
  UPDATE kb_fts_df SET df = df - 1 WHERE old.fts_ns IS NOT NULL AND ns = old.fts_ns AND token IN (SELECT value FROM json_each(CASE WHEN json_valid('["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) UNION SELECT '');
  DELETE FROM kb_fts_df WHERE old.fts_ns IS NOT NULL AND ns = old.fts_ns AND df <= 0 AND token IN (SELECT value FROM json_each(CASE WHEN json_valid('["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(old.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) UNION SELECT '');
  INSERT INTO kb_fts_df (ns, token, df) SELECT new.fts_ns, value, 1 FROM (SELECT value FROM json_each(CASE WHEN json_valid('["' || replace(replace(replace(new.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]') THEN '["' || replace(replace(replace(new.retrieval_tokens, '\', '\\'), '"', '\"'), ' ', '","') || '"]' ELSE '[]' END) UNION SELECT '') WHERE new.fts_ns IS NOT NULL
    ON CONFLICT (ns, token) DO UPDATE SET df = df + 1;
END;
