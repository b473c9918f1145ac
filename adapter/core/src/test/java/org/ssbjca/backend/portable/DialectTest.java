package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Which SQL states, besides class 08, mean a session is gone; which mean a statement met other transactions. */
class DialectTest {

    @Test
    void postgresqlShutdownStatesMeanTheSessionIsGone() {
        assertTrue(Dialect.POSTGRESQL.sessionGone(new SQLException("terminating connection", "57P01")));
        assertFalse(Dialect.POSTGRESQL.sessionGone(new SQLException("duplicate key", "23505")));
        assertFalse(Dialect.H2.sessionGone(new SQLException("terminating connection", "57P01")));
        assertTrue(Dialect.H2.sessionGone(new SQLException("connection broken", "90067")));
        assertTrue(Dialect.H2.sessionGone(new SQLException("IO Exception: \"java.io.EOFException\"", "90028")));
    }

    @Test
    void anErrorWithoutAStateIsNotALostSession() {
        assertFalse(Dialect.POSTGRESQL.sessionGone(new SQLException("no state")));
        assertFalse(Dialect.H2.sessionGone(new SQLException("no state")));
    }

    @Test
    void lockTimeoutsDeadlocksAndConcurrentInsertsAreContention() {
        assertTrue(Dialect.H2.contention(new SQLException("Timeout trying to lock table", "HYT00")));
        assertTrue(Dialect.H2.contention(new SQLException("Deadlock detected", "40001")));
        assertTrue(Dialect.H2.contention(new SQLException("Unique index or primary key violation", "23505")));
        assertTrue(Dialect.POSTGRESQL.contention(new SQLException("canceling statement due to lock timeout", "55P03")));
        assertTrue(Dialect.POSTGRESQL.contention(new SQLException("deadlock detected", "40P01")));
        assertTrue(Dialect.POSTGRESQL.contention(new SQLException("could not serialize access", "40001")));
        assertFalse(Dialect.POSTGRESQL.contention(new SQLException("foreign key violation", "23503")));
        assertFalse(Dialect.H2.contention(new SQLException("Referential integrity constraint violation", "23506")));
        assertFalse(Dialect.H2.contention(new SQLException("no state")));
    }

    /**
     * The failures docs/guide/delayed-sends.md says a scheduled send is kept after (tried again later, not dropped),
     * by backend: a lock wait that ran out, a deadlock, a serialization failure, a concurrent insert of the same key,
     * a statement timeout, and H2's concurrent update.
     */
    @Test
    void everyFailureTheDelayedSendsPageKeepsIsContention() {
        for (String state : java.util.List.of("55P03", "40P01", "40001", "23505", "57014")) {
            assertTrue(Dialect.POSTGRESQL.contention(new SQLException("failed", state)), "PostgreSQL " + state);
        }
        for (String state : java.util.List.of("HYT00", "40001", "23505", "57014", "90131")) {
            assertTrue(Dialect.H2.contention(new SQLException("failed", state)), "H2 " + state);
        }
    }
}
