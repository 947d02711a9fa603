-- The hourly cleanup of what sign-ins leave behind (auth/cleanup.ts) finds old flow states and
-- old anonymous users by index.
CREATE INDEX flow_states_created_at_idx ON auth.flow_states (created_at);
CREATE INDEX users_anonymous_created_at_idx ON auth.users (created_at) WHERE is_anonymous;
