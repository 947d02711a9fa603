-- A time-ordered id (as internal.uuid_v7()) for a given instant: rows that must look made at
-- one instant (a new user and its identity, made at the transaction's time) get ids of its
-- millisecond, as the answer that stands in for a user who already exists has.
CREATE FUNCTION internal.uuid_v7(at timestamptz) RETURNS uuid
LANGUAGE sql VOLATILE PARALLEL SAFE AS $$
  SELECT encode(
    set_bit(set_bit(
      overlay(uuid_send(gen_random_uuid())
        PLACING substring(int8send(floor(extract(epoch FROM at) * 1000)::bigint) FROM 3)
        FROM 1 FOR 6),
      52, 1), 53, 1),
    'hex')::uuid
$$;
