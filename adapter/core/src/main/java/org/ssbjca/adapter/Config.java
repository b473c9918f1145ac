package org.ssbjca.adapter;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Helpers for configuration values. */
public final class Config {

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
     * @param value a string
     * @return null for null or blank, else the trimmed value
     */
    public static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value.trim();
    }
}
