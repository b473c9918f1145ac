package org.ssbjca.it.support;

import java.io.IOException;
import java.io.UncheckedIOException;

import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;

/**
 * The PostgreSQL server of this test JVM (client side only: the class is not in any deployment).
 * <p>
 * By default an embedded PostgreSQL 17 (zonky), started on first use, listening on 127.0.0.1 at a free port, with
 * {@code max_prepared_transactions=20} so that two-phase XA works; it is stopped by the shutdown hook that the
 * embedded server registers itself. When the environment variable {@code SSB_TEST_POSTGRES_URL} is set, that server
 * is used instead, with {@code SSB_TEST_POSTGRES_USER} and {@code SSB_TEST_POSTGRES_PASSWORD}; it must allow
 * prepared transactions.
 * <p>
 * WildFly runs in another JVM on the same machine: give the adapter {@link #jdbcUrl()}, which names 127.0.0.1.
 */
public final class Postgres {

    /** Environment variable: JDBC URL of an existing server to use instead of the embedded one. */
    public static final String URL_ENV = "SSB_TEST_POSTGRES_URL";
    /** Environment variable: user for {@link #URL_ENV}. */
    public static final String USER_ENV = "SSB_TEST_POSTGRES_USER";
    /** Environment variable: password for {@link #URL_ENV}. */
    public static final String PASSWORD_ENV = "SSB_TEST_POSTGRES_PASSWORD";

    private static final String EMBEDDED_USER = "postgres";
    /** The embedded server trusts every local connection: the password is sent but not checked. */
    private static final String EMBEDDED_PASSWORD = "postgres";

    private static Postgres instance;

    private final String jdbcUrl;
    private final String user;
    private final String password;

    private Postgres(String jdbcUrl, String user, String password) {
        this.jdbcUrl = jdbcUrl;
        this.user = user;
        this.password = password;
    }

    /**
     * @return the server of this JVM, started if it was not yet
     */
    public static synchronized Postgres get() {
        if (instance == null) {
            instance = start();
        }
        return instance;
    }

    private static Postgres start() {
        String url = System.getenv(URL_ENV);
        if (url != null && !url.isBlank()) {
            return new Postgres(url, envOr(USER_ENV, EMBEDDED_USER), envOr(PASSWORD_ENV, ""));
        }
        try {
            EmbeddedPostgres server = EmbeddedPostgres.builder()
                    .setServerConfig("listen_addresses", "127.0.0.1")
                    .setServerConfig("max_prepared_transactions", "20")
                    .start();
            String embeddedUrl = "jdbc:postgresql://127.0.0.1:" + server.getPort() + "/postgres";
            return new Postgres(embeddedUrl, EMBEDDED_USER, EMBEDDED_PASSWORD);
        } catch (IOException e) {
            throw new UncheckedIOException("embedded PostgreSQL did not start", e);
        }
    }

    private static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null ? fallback : value;
    }

    /** @return the JDBC URL, reachable from WildFly too */
    public String jdbcUrl() {
        return jdbcUrl;
    }

    /**
     * @param database another database of the same server
     * @return its JDBC URL: {@link #jdbcUrl()} naming {@code database}, with the same parameters
     */
    public String jdbcUrl(String database) {
        return jdbcUrl.replaceFirst("^(jdbc:postgresql://[^/]+/)[^?]*", "$1" + database);
    }

    /** @return the user name */
    public String user() {
        return user;
    }

    /** @return the password */
    public String password() {
        return password;
    }
}
