package org.ssbjca.inbound;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A reader's local transaction around work of its own (the priority scan, {@link ReaderConnection#inLocalTransaction})
 * commits the work's writes only when the work returns: whatever it throws, an {@link Error} included, rolls them back.
 */
class LocalTransactionTest {

    private static final String TABLE = "local_tx_probe";

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"H2", "PostgreSQL"})
    void anErrorRollsBackWhatTheWorkWrote(String backend) throws Exception {
        try (InboundHarness h = InboundBackends.harness(backend)) {
            h.execute("CREATE TABLE " + TABLE + " (n INT)");
            ReaderConnection c = ReaderConnection.open(h.db, 0, () -> { });
            try {
                StackOverflowError thrown = new StackOverflowError("thrown by the work");
                Error e = assertThrows(Error.class, () -> c.inLocalTransaction(() -> {
                    try (Statement s = c.connection().createStatement()) {
                        s.executeUpdate("INSERT INTO " + TABLE + " VALUES (1)");
                    }
                    throw thrown;
                }));
                assertEquals(thrown, e, "the work's own failure");
                assertTrue(c.connection().getAutoCommit(), "auto-commit on again");
                c.inLocalTransaction(() -> {
                    try (Statement s = c.connection().createStatement()) {
                        s.executeUpdate("INSERT INTO " + TABLE + " VALUES (2)");
                    }
                });
            } finally {
                c.close();
            }
            try (Connection other = h.db.source().open(); Statement s = other.createStatement();
                    ResultSet rs = s.executeQuery("SELECT COALESCE(SUM(n), 0) FROM " + TABLE)) {
                rs.next();
                assertEquals(2, rs.getInt(1), "only the write of the work that returned committed");
            }
        }
    }
}
