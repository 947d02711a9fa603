-- The admin API: users listed newest (or oldest) first a page at a time, and users deleted with
-- everything that refers to them (each foreign key into auth.users leads an index).
CREATE INDEX users_created_at_idx ON auth.users (created_at, id);
CREATE INDEX refresh_tokens_user_id_idx ON auth.refresh_tokens (user_id);
CREATE INDEX flow_states_user_id_idx ON auth.flow_states (user_id);
