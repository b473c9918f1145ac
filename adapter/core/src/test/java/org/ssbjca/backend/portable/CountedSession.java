package org.ssbjca.backend.portable;

import java.sql.Connection;
import java.sql.SQLException;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.BrokerSession;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.conformance.PostgresServer;

/**
 * A broker on a PostgreSQL database and a session on one of its connections, whose round trips are counted
 * ({@link CountingSocketFactory}). The broker's presence clock ({@link #nanos}) moves only when a test moves it.
 */
final class CountedSession implements AutoCloseable {

    final PortableBroker broker;
    final Connection c;
    final BrokerSession s;
    final java.util.concurrent.atomic.AtomicLong nanos = new java.util.concurrent.atomic.AtomicLong();
    /** Whether a branch is open ({@link #beginBranchWithAutoCommitOn}), as the session is told. */
    private final java.util.concurrent.atomic.AtomicBoolean branch = new java.util.concurrent.atomic.AtomicBoolean();
    private final DatabaseConfig config;

    /** The broker's schema prepared on the database (installed only when {@code create}). */
    CountedSession(DatabaseConfig database, boolean create) throws Exception {
        config = UnconnectedSocketFactory.through(database, CountingSocketFactory.class, "");
        ConnectionSource source = new ConnectionSource(config);
        broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), PortableOptions.defaults(), nanos::get);
        c = source.open();
        broker.prepareSchema(c, create);
        s = broker.session(c);
        s.knowBranchesBy(branch::get);
    }

    /** A new database with the schema and {@link IdleGroupsReceiveTest#declare}'s declarations. */
    static CountedSession declared(String database) throws Exception {
        CountedSession f = new CountedSession(PostgresServer.get().newDatabase(database), true);
        f.declare();
        return f;
    }

    void declare() throws Exception {
        IdleGroupsReceiveTest.declare(broker, c);
    }

    /** Commits as a transaction's owner does: what the session held back written first ({@link BrokerSession#flush}). */
    void commit() throws Exception {
        s.flush();
        c.commit();
        s.afterCompletion(true);
    }

    /**
     * Opens a transaction as pgjdbc 42.7.13 and later open an XA branch: auto-commit stays on, the {@code BEGIN} goes
     * alone, and the session learns of the branch only from its owner ({@link BrokerSession#knowBranchesBy}).
     */
    void beginBranchWithAutoCommitOn() throws SQLException {
        c.setAutoCommit(true);
        try (java.sql.Statement st = c.createStatement()) {
            st.execute("BEGIN");
        }
        branch.set(true);
    }

    /** Ends the branch {@link #beginBranchWithAutoCommitOn} opened as its owner does: the session flushed first. */
    void commitBranch() throws SQLException {
        s.flush();
        branch.set(false);
        try (java.sql.Statement st = c.createStatement()) {
            st.execute("COMMIT");
        }
        s.afterCompletion(true);
        c.setAutoCommit(false);
    }

    /** Runs statements in a transaction of their own, on another connection (an operator's). */
    void admin(String statements) throws Exception {
        try (Connection other = new ConnectionSource(config).open();
                java.sql.Statement st = other.createStatement()) {
            st.execute(statements);
            other.commit();
        }
    }

    @Override
    public void close() throws SQLException {
        try {
            c.close();
        } finally {
            broker.close();
        }
    }
}
