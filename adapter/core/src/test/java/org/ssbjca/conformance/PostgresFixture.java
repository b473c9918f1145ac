package org.ssbjca.conformance;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import org.ssbjca.backend.DatabaseConfig;

/**
 * A real PostgreSQL server: the one named by {@code SSB_TEST_POSTGRES_URL} (with {@code SSB_TEST_POSTGRES_USER} and
 * {@code SSB_TEST_POSTGRES_PASSWORD}), or an embedded PostgreSQL started for this JVM with
 * {@code max_prepared_transactions} set so that two-phase XA works.
 */
final class PostgresFixture extends PortableFixture {

    private final EmbeddedPostgres embedded;

    PostgresFixture() {
        this(embeddedUnlessConfigured());
    }

    private PostgresFixture(EmbeddedPostgres embedded) {
        super(embedded == null
                ? new DatabaseConfig(System.getenv("SSB_TEST_POSTGRES_URL"), System.getenv("SSB_TEST_POSTGRES_USER"),
                        System.getenv("SSB_TEST_POSTGRES_PASSWORD"))
                : new DatabaseConfig(embedded.getJdbcUrl("postgres", "postgres"), "postgres", "postgres"));
        this.embedded = embedded;
    }

    private static EmbeddedPostgres embeddedUnlessConfigured() {
        String url = System.getenv("SSB_TEST_POSTGRES_URL");
        if (url != null && !url.isBlank()) {
            return null;
        }
        try {
            return EmbeddedPostgres.builder()
                    .setServerConfig("max_prepared_transactions", "20")
                    .setServerConfig("max_connections", "100")
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot start embedded PostgreSQL", e);
        }
    }

    @Override
    public String name() {
        return "PostgreSQL";
    }

    /** {@code pg_terminate_backend}: the session ends with {@code FATAL 57P01}, as at a server shutdown. */
    @Override
    public SessionEnder sessionEnder(Connection victim) throws SQLException {
        int pid = BackendFixture.queryInt(victim, "SELECT pg_backend_pid()");
        return () -> {
            try (Connection admin = connect();
                    java.sql.PreparedStatement ps = admin.prepareStatement("SELECT pg_terminate_backend(?)")) {
                ps.setInt(1, pid);
                try (java.sql.ResultSet rs = ps.executeQuery()) {
                    rs.next();
                    if (!rs.getBoolean(1)) {
                        throw new SQLException("session " + pid + " was not terminated");
                    }
                }
                admin.commit();
            }
        };
    }

    @Override
    public void setLockTimeout(Connection c, long millis) throws SQLException {
        set(c, "SET lock_timeout = " + millis);
    }

    @Override
    public void close() {
        super.close();
        if (embedded != null) {
            try {
                embedded.close();
            } catch (IOException e) {
                // the JVM is ending; the data directory is temporary
            }
        }
    }
}
