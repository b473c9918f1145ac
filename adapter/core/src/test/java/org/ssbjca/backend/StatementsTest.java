package org.ssbjca.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A connection's statements are prepared once and run again with new parameters. */
class StatementsTest {

    @Test
    void eachTextIsPreparedOnceAndRunsAgainWithNewParameters() throws Exception {
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID())) {
            List<PreparedStatement> prepared = new ArrayList<>();
            Statements st = new Statements(counting(h2, prepared));
            st.update("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            for (int i = 0; i < 5; i++) {
                assertEquals(1, st.update("INSERT INTO t VALUES (?, ?)", i, "v" + i));
            }
            assertEquals("v3", st.first("SELECT v FROM t WHERE id = ?", rs -> rs.getString(1), 3));
            assertNull(st.first("SELECT v FROM t WHERE id = ?", rs -> rs.getString(1), 9), "new parameters, no row");
            assertEquals(List.of(0, 1), st.list("SELECT id FROM t WHERE id < ? ORDER BY id", rs -> rs.getInt(1), 2));
            assertTrue(st.exists("SELECT 1 FROM t WHERE id = ?", 4));
            assertFalse(st.exists("SELECT 1 FROM t WHERE id = ?", 7));
            assertThrows(SQLException.class, () -> st.update("INSERT INTO t VALUES (?, ?)", 1, "again"));
            assertEquals(1, st.update("INSERT INTO t VALUES (?, ?)", 5, "v5"), "usable after a failure");

            assertEquals(5, prepared.size(), "one statement per text: " + prepared.size());
            for (PreparedStatement ps : prepared) {
                assertFalse(ps.isClosed(), "kept open for the next call");
            }
        }
    }

    @Test
    void pastTheKeptStatementsFurtherTextsArePreparedAndClosedEachTime() throws Exception {
        try (Connection h2 = DriverManager.getConnection("jdbc:h2:mem:" + UUID.randomUUID())) {
            List<PreparedStatement> prepared = new ArrayList<>();
            Statements st = new Statements(counting(h2, prepared));
            for (int i = 0; i < 300; i++) {
                assertEquals(Integer.valueOf(i), st.<Integer>first("SELECT " + i, rs -> rs.getInt(1)));
            }
            assertEquals(Integer.valueOf(300), st.<Integer>first("SELECT 300", rs -> rs.getInt(1)));
            assertEquals(Integer.valueOf(300), st.<Integer>first("SELECT 300", rs -> rs.getInt(1)));
            assertEquals(302, prepared.size());
            assertEquals(256, prepared.stream().filter(ps -> !isClosed(ps)).count(), "256 kept, the others closed");
        }
    }

    /**
     * On PostgreSQL a query run between its settings that begins the transaction sends its {@code BEGIN} in its own
     * write (RoundTripsTest counts the writes): the transaction it begins is the connection's, as pgjdbc's own would
     * be. Its writes are undone by the rollback, kept by the commit; a later query of the same transaction begins
     * none; auto-commit stays off.
     */
    @Test
    void onPostgresqlAQueryThatBeginsTheTransactionBeginsTheConnectionsOwn() throws Exception {
        DatabaseConfig db = org.ssbjca.conformance.PostgresServer.get().newDatabase("statements_begin");
        try (Connection c = new ConnectionSource(db).open()) {
            Statements st = new Statements(c);
            st.update("CREATE TABLE t (id INT PRIMARY KEY)");
            c.commit();
            org.postgresql.core.BaseConnection pg = (org.postgresql.core.BaseConnection) c;
            for (int i = 0; i < 7; i++) { // past pgjdbc's prepare threshold: prepared on the server too
                assertEquals(org.postgresql.core.TransactionState.IDLE, pg.getTransactionState());
                assertEquals(Integer.valueOf(i), inserted(st, i));
                assertEquals(org.postgresql.core.TransactionState.OPEN, pg.getTransactionState(), "begun");
                assertFalse(c.getAutoCommit(), "auto-commit off again");
                assertEquals(Integer.valueOf(100 + i), inserted(st, 100 + i), "the same transaction");
                if (i % 2 == 0) {
                    c.rollback();
                } else {
                    c.commit();
                }
            }
            assertEquals(List.of(1, 3, 5, 101, 103, 105), st.list("SELECT id FROM t ORDER BY id", rs -> rs.getInt(1)),
                    "the rolled back transactions' rows undone, the committed ones' kept");
            c.rollback();
        }
    }

    /**
     * On PostgreSQL a query that began the transaction and failed leaves it failed, auto-commit off: the rollback ends
     * it and the connection goes on.
     */
    @Test
    void onPostgresqlAQueryThatBeganTheTransactionAndFailedLeavesItToTheRollback() throws Exception {
        DatabaseConfig db = org.ssbjca.conformance.PostgresServer.get().newDatabase("statements_begin_failed");
        try (Connection c = new ConnectionSource(db).open()) {
            Statements st = new Statements(c);
            st.update("CREATE TABLE t (id INT PRIMARY KEY)");
            c.commit();
            org.postgresql.core.BaseConnection pg = (org.postgresql.core.BaseConnection) c;
            assertThrows(SQLException.class, () -> inserted(st, 1, "0"), "division by zero");
            assertFalse(c.getAutoCommit());
            assertEquals(org.postgresql.core.TransactionState.FAILED, pg.getTransactionState());
            c.rollback();
            assertEquals(Integer.valueOf(2), inserted(st, 2));
            c.commit();
            assertEquals(List.of(2), st.list("SELECT id FROM t", rs -> rs.getInt(1)));
            c.rollback();
        }
    }

    private static Integer inserted(Statements st, int id) throws SQLException {
        return inserted(st, id, "1");
    }

    /** Inserts {@code id} between two settings' statements, the last one dividing by {@code divisor}. */
    private static Integer inserted(Statements st, int id, String divisor) throws SQLException {
        return st.firstBetween("SELECT set_config('ssbjca.test', 'on', true)",
                "INSERT INTO t VALUES (? / " + divisor + ") RETURNING id", "SELECT set_config('ssbjca.test', '', true)",
                rs -> rs.getInt(1), id);
    }

    private static boolean isClosed(PreparedStatement ps) {
        try {
            return ps.isClosed();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The connection, recording every statement it prepares. */
    private static Connection counting(Connection c, List<PreparedStatement> prepared) {
        return (Connection) Proxy.newProxyInstance(StatementsTest.class.getClassLoader(),
                new Class<?>[] {Connection.class}, (proxy, method, args) -> {
                    Object result = method.invoke(c, args);
                    if (method.getName().equals("prepareStatement")) {
                        prepared.add((PreparedStatement) result);
                    }
                    return result;
                });
    }
}
