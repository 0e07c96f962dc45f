-- The mandatory block reads a chat's rules (`kind IN ('rule')`) on every turn. With only
-- nodes_scope_importance, SQLite walks the scope's whole active memory by importance to find
-- the few rules; with the kind in the key it reads only the rules, already in the order the
-- query wants. Memory nodes only: the query names node_type = 'memory'.
CREATE INDEX nodes_scope_kind ON nodes (scope_type, scope_id, status, kind, importance DESC, updated_at DESC)
  WHERE node_type = 'memory';
