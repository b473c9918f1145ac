package org.ssbjca.backend;

import java.util.Locale;

/** The databases the adapter speaks to, recognised by their JDBC URL prefix. */
public enum BackendKind {
    /** Native SQL Server Service Broker through mssql-jdbc. */
    SQLSERVER("jdbc:sqlserver:"),
    /** The portable broker schema on PostgreSQL. */
    POSTGRESQL("jdbc:postgresql:"),
    /** The portable broker schema on H2 (embedded or server). */
    H2("jdbc:h2:");

    private final String urlPrefix;

    BackendKind(String urlPrefix) {
        this.urlPrefix = urlPrefix;
    }

    /**
     * Returns the backend for it.
     *
     * @param url a JDBC URL
     * @throws IllegalArgumentException naming the accepted prefixes when the URL matches none
     */
    public static BackendKind fromUrl(String url) {
        if (url != null) {
            String lower = url.toLowerCase(Locale.ROOT);
            for (BackendKind k : values()) {
                if (lower.startsWith(k.urlPrefix)) {
                    return k;
                }
            }
        }
        throw new IllegalArgumentException("unsupported JDBC URL '" + url
                + "': expected one starting with jdbc:sqlserver:, jdbc:postgresql: or jdbc:h2:");
    }
}
