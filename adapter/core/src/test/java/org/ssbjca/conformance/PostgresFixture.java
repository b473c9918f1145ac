package org.ssbjca.conformance;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import org.ssbjca.backend.BackgroundRunner;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.PortableBroker;

/**
 * A real PostgreSQL server: the one named by {@code SSB_TEST_POSTGRES_URL} (with {@code SSB_TEST_POSTGRES_USER} and
 * {@code SSB_TEST_POSTGRES_PASSWORD}), or an embedded PostgreSQL started for this JVM with
 * {@code max_prepared_transactions} set so that two-phase XA works.
 */
final class PostgresFixture implements BackendFixture {

    private final EmbeddedPostgres embedded;
    private final ConnectionSource source;
    private final PortableBroker broker;

    PostgresFixture() {
        String url = System.getenv("SSB_TEST_POSTGRES_URL");
        DatabaseConfig config;
        if (url != null && !url.isBlank()) {
            embedded = null;
            config = new DatabaseConfig(url, System.getenv("SSB_TEST_POSTGRES_USER"),
                    System.getenv("SSB_TEST_POSTGRES_PASSWORD"));
        } else {
            try {
                embedded = EmbeddedPostgres.builder()
                        .setServerConfig("max_prepared_transactions", "20")
                        .setServerConfig("max_connections", "100")
                        .start();
            } catch (IOException e) {
                throw new IllegalStateException("cannot start embedded PostgreSQL", e);
            }
            config = new DatabaseConfig(embedded.getJdbcUrl("postgres", "postgres"), "postgres", "postgres");
        }
        source = new ConnectionSource(config);
        broker = new PortableBroker(source, BackgroundRunner.daemonThreads(), Conformance.PORTABLE_OPTIONS);
        try (Connection c = source.open()) {
            broker.installSchema(c);
        } catch (SQLException e) {
            throw new IllegalStateException("cannot install the portable schema on PostgreSQL " + config, e);
        }
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    @Override
    public Broker broker() {
        return broker;
    }

    @Override
    public Connection connect() throws SQLException {
        return source.open();
    }

    @Override
    public void setLockTimeout(Connection c, long millis) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute("SET lock_timeout = " + millis);
        }
    }

    @Override
    public void close() {
        BackendFixture.super.close();
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                // the JVM is ending; the data directory is temporary
            }
        }
    }
}
