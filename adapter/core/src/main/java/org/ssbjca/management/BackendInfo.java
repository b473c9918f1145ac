package org.ssbjca.management;

import javax.management.ConstructorParameters;

/** A broker database the adapter uses; JMX clients see it as {@code CompositeData} (kind, database). */
public final class BackendInfo {

    private final String kind;
    private final String database;

    /**
     * @param kind {@code SQLSERVER}, {@code POSTGRESQL} or {@code H2}
     * @param database the JDBC URL and user, passwords masked
     */
    @ConstructorParameters({"kind", "database"})
    public BackendInfo(String kind, String database) {
        this.kind = kind;
        this.database = database;
    }

    /** Returns {@code SQLSERVER}, {@code POSTGRESQL} or {@code H2}. */
    public String getKind() {
        return kind;
    }

    /** Returns the JDBC URL and user, passwords masked. */
    public String getDatabase() {
        return database;
    }
}
