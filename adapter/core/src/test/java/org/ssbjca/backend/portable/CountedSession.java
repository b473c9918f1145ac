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
    private final DatabaseConfig config;

    /** The broker's schema prepared on the database (installed only when {@code create}). */
    CountedSession(DatabaseConfig database, boolean create) throws Exception {
        config = UnconnectedSocketFactory.through(database, CountingSocketFactory.class, "");
        ConnectionSource source = new ConnectionSource(config);
        broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), PortableOptions.defaults(), nanos::get);
        c = source.open();
        broker.prepareSchema(c, create);
        s = broker.session(c);
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
