package org.ssbjca.backend.portable;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Which SQL states, besides class 08, mean a session is gone. */
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
}
