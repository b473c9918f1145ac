package org.ssbjca.backend;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where the broker lives: JDBC URL and credentials. Equal configurations share one {@link Broker}.
 * {@link #toString()} never shows the password.
 */
public final class DatabaseConfig {

    /** A password written into the URL itself (SQL Server {@code ;password=}, PostgreSQL {@code &password=}). */
    private static final Pattern PASSWORD_IN_URL = Pattern.compile("(?i)(password=)[^;&]*");

    private final String url;
    private final String user;
    private final String password;
    private final BackendKind kind;

    /**
     * @param url JDBC URL ({@code jdbc:sqlserver:}, {@code jdbc:postgresql:} or {@code jdbc:h2:})
     * @param user user name, or null
     * @param password password, or null
     * @throws IllegalArgumentException if the URL selects no backend
     */
    public DatabaseConfig(String url, String user, String password) {
        this.url = Objects.requireNonNull(url, "url").trim();
        this.user = user == null || user.isEmpty() ? null : user;
        this.password = password == null || password.isEmpty() ? null : password;
        this.kind = BackendKind.fromUrl(this.url);
    }

    /** Returns the JDBC URL. */
    public String url() {
        return url;
    }

    /** Returns the user, or null. */
    public String user() {
        return user;
    }

    /** Returns the password, or null. */
    public String password() {
        return password;
    }

    /** Returns the backend the URL selects. */
    public BackendKind kind() {
        return kind;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof DatabaseConfig d)) {
            return false;
        }
        return url.equals(d.url) && Objects.equals(user, d.user) && Objects.equals(password, d.password);
    }

    @Override
    public int hashCode() {
        return Objects.hash(url, user, password);
    }

    @Override
    public String toString() {
        return kind + "[" + PASSWORD_IN_URL.matcher(url).replaceAll("$1***") + (user == null ? "" : ", user=" + user)
                + "]";
    }
}
