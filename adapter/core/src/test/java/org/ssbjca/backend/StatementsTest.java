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
        try (Connection c = withTable("statements_begin")) {
            Statements st = new Statements(c);
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
        try (Connection c = withTable("statements_begin_failed")) {
            Statements st = new Statements(c);
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

    /**
     * A transaction manager's reaper rolls a branch back from its own thread, also while the branch's first statement
     * is still running on the reader's: the statement that carries its transaction's {@code BEGIN} runs with pgjdbc's
     * auto-commit on, and pgjdbc refuses a rollback then ("Cannot rollback when autoCommit is enabled"), after its XA
     * resource has already forgotten the branch, leaving the transaction open on the server for the connection's next
     * one. The rollback waits for the statement instead, as pgjdbc made it wait before, and the branch is rolled back.
     */
    @Test
    void onPostgresqlARollbackFromAnotherThreadWaitsForTheStatementThatBeganTheBranch() throws Exception {
        DatabaseConfig db = org.ssbjca.conformance.PostgresServer.get().newDatabase("statements_begin_reaper");
        ConnectionSource source = new ConnectionSource(db);
        javax.sql.XAConnection xa = source.openXa();
        try (Connection blocker = source.open()) {
            Connection handle = xa.getConnection();
            Connection physical = handle.unwrap(Connection.class);
            Statements st = new Statements(physical);
            st.update("CREATE TABLE t (id INT PRIMARY KEY)"); // auto-commit on: no branch yet
            try (java.sql.Statement s = blocker.createStatement()) {
                s.execute("INSERT INTO t VALUES (1)"); // uncommitted: an insert of 1 waits for it
            }
            javax.transaction.xa.XAResource branch = xa.getXAResource();
            javax.transaction.xa.Xid xid = org.ssbjca.fakes.TestXid.next("reaper");
            branch.start(xid, javax.transaction.xa.XAResource.TMNOFLAGS);
            java.util.concurrent.CompletableFuture<Integer> statement = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> {
                        try {
                            return inserted(st, 1);
                        } catch (SQLException e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
            int pid = physical.unwrap(org.postgresql.PGConnection.class).getBackendPID();
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30))
                    .until(() -> waitsForALock(blocker, pid));
            Thread[] reaper = new Thread[1];
            java.util.concurrent.CompletableFuture<Void> rollback = java.util.concurrent.CompletableFuture.runAsync(
                    () -> {
                        reaper[0] = Thread.currentThread();
                        try {
                            branch.end(xid, javax.transaction.xa.XAResource.TMFAIL);
                            branch.rollback(xid);
                        } catch (javax.transaction.xa.XAException e) {
                            throw new java.util.concurrent.CompletionException(e);
                        }
                    });
            // waiting for the statement: on the connection's monitor, or on pgjdbc's lock (without the BEGIN)
            org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(30)).until(() -> rollback.isDone()
                    || reaper[0] != null && (reaper[0].getState() == Thread.State.BLOCKED
                    || reaper[0].getState() == Thread.State.WAITING));
            blocker.rollback(); // the statement goes on
            assertEquals(Integer.valueOf(1), statement.get(30, java.util.concurrent.TimeUnit.SECONDS));
            rollback.get(30, java.util.concurrent.TimeUnit.SECONDS); // threw before: autoCommit was on
            assertEquals(org.postgresql.core.TransactionState.IDLE,
                    physical.unwrap(org.postgresql.core.BaseConnection.class).getTransactionState(), "rolled back");
            try (java.sql.Statement s = blocker.createStatement();
                    java.sql.ResultSet rs = s.executeQuery("SELECT count(*) FROM t")) {
                rs.next();
                assertEquals(0, rs.getInt(1), "the branch's insert undone");
            }
            blocker.rollback();
        } finally {
            xa.close();
        }
    }

    /** Returns whether the backend {@code pid} waits for a lock. */
    private static boolean waitsForALock(Connection c, int pid) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement(
                "SELECT wait_event_type = 'Lock' FROM pg_stat_activity WHERE pid = ?")) {
            ps.setInt(1, pid);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next() && rs.getBoolean(1);
            }
        }
    }

    /**
     * Returns a connection, auto-commit off, to a new PostgreSQL database with a table {@code t (id INT PRIMARY KEY)}.
     */
    private static Connection withTable(String database) throws SQLException {
        Connection c = new ConnectionSource(org.ssbjca.conformance.PostgresServer.get().newDatabase(database)).open();
        try (java.sql.Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY)");
        }
        c.commit();
        return c;
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
