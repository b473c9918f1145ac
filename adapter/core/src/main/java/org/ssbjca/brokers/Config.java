package org.ssbjca.brokers;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.ssbjca.backend.DatabaseConfig;

/** Helpers for configuration values. */
public final class Config {

    /** The default database: an H2 file in the server's data directory, created on first use. */
    public static final String DEFAULT_URL =
            "jdbc:h2:${jboss.server.data.dir:./target}/ssb-jca/broker;LOCK_TIMEOUT=10000";

    private static final Pattern PROPERTY = Pattern.compile("\\$\\{([^}:]+)(?::([^}]*))?}");

    private Config() {
    }

    /**
     * Expands {@code ${name}} and {@code ${name:default}} from system properties, so that a default such as
     * {@code jdbc:h2:${jboss.server.data.dir}/ssb-jca/broker} follows the server's data directory.
     *
     * @param value a configured value, or null
     * @return the value with system properties expanded
     * @throws IllegalArgumentException naming the property when it is not set and has no default
     */
    public static String expand(String value) {
        if (value == null || !value.contains("${")) {
            return value;
        }
        Matcher m = PROPERTY.matcher(value);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String v = System.getProperty(m.group(1), m.group(2));
            if (v == null) {
                throw new IllegalArgumentException("system property '" + m.group(1) + "' used in '" + value
                        + "' is not set");
            }
            m.appendReplacement(out, Matcher.quoteReplacement(v));
        }
        m.appendTail(out);
        return out.toString();
    }

    /**
     * Resolves the database of a connection factory or activation: its own connection properties where set, else the
     * resource adapter's default database ({@link AdapterContext#defaultDatabase()}: its properties, and what
     * MicroProfile Config gave for those left unset), else the adapter's default URL.
     *
     * @param url the own URL, or null
     * @param user the own user, or null
     * @param password the own password, or null
     * @param ra the resource adapter, or null when not associated (yet)
     * @return the database
     * @throws IllegalArgumentException if the URL selects no backend or names an unset system property
     */
    public static DatabaseConfig database(String url, String user, String password, AdapterContext ra) {
        DatabaseConfig adapters = ra == null ? null : ra.defaultDatabase();
        String u = blankToNull(url);
        if (u == null) {
            u = adapters == null ? DEFAULT_URL : adapters.url();
        }
        String name = blankToNull(user) != null ? user : adapters == null ? null : adapters.user();
        String secret = blankToNull(password) != null ? password : adapters == null ? null : adapters.password();
        return new DatabaseConfig(expand(u), name, secret);
    }

    /**
     * Returns null for null or blank, else the trimmed value.
     *
     * @param value a string
     */
    public static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
