package org.ssbjca.bench;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The benchmark's PostgreSQL: embedded (zonky), but durable. zonky starts the server with {@code -F} (fsync off)
 * and {@code synchronous_commit=off}, which is right for tests and wrong for a benchmark; here both are on (the
 * later {@code -c fsync=on} overrides {@code -F}), and {@link #settings()} reads them back from the server so that
 * the report shows what really ran. pg_stat_statements is loaded for the statement profile.
 */
final class BenchPostgres {

    static final String USER = "postgres";
    static final String PASSWORD = "postgres";

    private static BenchPostgres instance;

    private final EmbeddedPostgres server;
    private final String url;

    private BenchPostgres(EmbeddedPostgres server) {
        this.server = server;
        this.url = "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres";
    }

    static synchronized BenchPostgres get() {
        if (instance == null) {
            try {
                instance = new BenchPostgres(EmbeddedPostgres.builder()
                        .setServerConfig("listen_addresses", "127.0.0.1")
                        .setServerConfig("fsync", "on")
                        .setServerConfig("synchronous_commit", "on")
                        .setServerConfig("full_page_writes", "on")
                        .setServerConfig("max_prepared_transactions", "20")
                        .setServerConfig("max_connections", "100")
                        .setServerConfig("shared_buffers", "1GB")
                        .setServerConfig("max_wal_size", "4GB")
                        .setServerConfig("shared_preload_libraries", "pg_stat_statements")
                        .setServerConfig("pg_stat_statements.max", "1000")
                        .setServerConfig("pg_stat_statements.track_planning", "on")
                        .start());
            } catch (IOException e) {
                throw new UncheckedIOException("embedded PostgreSQL did not start", e);
            }
        }
        return instance;
    }

    String url() {
        return url;
    }

    Connection connect() throws SQLException {
        return DriverManager.getConnection(url, USER, PASSWORD);
    }

    /** @return the settings that matter, as the server reports them */
    Map<String, String> settings() throws SQLException {
        Map<String, String> out = new LinkedHashMap<>();
        try (Connection c = connect(); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SHOW server_version")) {
                rs.next();
                out.put("server_version", rs.getString(1));
            }
            for (String name : new String[] {"fsync", "synchronous_commit", "full_page_writes", "wal_sync_method",
                "max_prepared_transactions", "shared_buffers"}) {
                try (ResultSet rs = s.executeQuery("SHOW " + name)) {
                    rs.next();
                    out.put(name, rs.getString(1));
                }
            }
        }
        return out;
    }

    void stop() throws IOException {
        server.close();
    }
}
