package org.ssbjca.backend;

/**
 * What a database's server can do for the adapter, as far as its activations depend on it: whether it has Service
 * Broker, and whether its connections can join an XA transaction. Read once per database ({@link Broker#platform}).
 *
 * @param name the server as a message to a user names it ("Azure SQL Database")
 * @param serviceBroker whether queue activations ({@code ServiceBrokerActivationSpec}) can read its queues
 * @param xa whether a delivery's connection can be enlisted in the container's XA transaction (a container-managed
 *        {@code REQUIRED} bean); where it cannot, only a bean without a container transaction is delivered, in the
 *        reader's local transaction
 */
public record Platform(String name, boolean serviceBroker, boolean xa) {

    /** A server with every capability the adapter uses (SQL Server, Azure SQL Managed Instance, PostgreSQL, H2). */
    public static final Platform COMPLETE = new Platform("", true, true);

    /**
     * Azure SQL Database ({@code SERVERPROPERTY('EngineEdition')} 5): no Service Broker and no MS DTC, hence no XA
     * (Microsoft Learn, "Features comparison: Azure SQL Database and Azure SQL Managed Instance").
     */
    public static final Platform AZURE_SQL_DATABASE = new Platform("Azure SQL Database", false, false);
}
