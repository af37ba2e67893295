-- How many things each owner holds: the row a create updates first, conditionally, so that
-- concurrent creates of one owner queue on it and none can take the owner past the limit.
CREATE TABLE things_owners (
    owner_id TEXT PRIMARY KEY,
    things BIGINT NOT NULL
);
INSERT INTO things_owners (owner_id, things) SELECT owner_id, COUNT(*) FROM things GROUP BY owner_id;
