package org.ssbjca.brokers;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import javax.transaction.xa.XAException;
import javax.transaction.xa.XAResource;
import org.ssbjca.backend.Broker;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.Platform;
import org.ssbjca.backend.sqlserver.SqlServerBroker;

/**
 * Azure SQL Database as the adapter meets it, over an H2 database: the server answers
 * {@code SERVERPROPERTY('EngineEdition')} with 5 (an H2 alias, read by SQL Server's own statement,
 * {@link SqlServerBroker#platformOf}), and every XA call fails as mssql-jdbc's does there, where
 * {@code master..xp_sqljdbc_xa_init_ex} cannot be called (Azure SQL Database has no MS DTC and refuses names of another
 * database). Everything else is the H2 database's broker.
 */
public final class AzureSqlDatabaseDouble {

    /** The message of the failed XA calls: Azure SQL Database's error 40515 for a name in another database. */
    static final String XA_FAILURE = "Reference to database and/or server name in 'master..xp_sqljdbc_xa_init_ex'"
            + " is not supported in this version of SQL Server.";

    /** XA calls the adapter made on the double's connections (each failed). */
    public final AtomicInteger xaCalls = new AtomicInteger();
    /** How many of the next questions for the server's edition fail, as when the database does not answer. */
    public final AtomicInteger unanswered = new AtomicInteger();

    private AzureSqlDatabaseDouble() {
    }

    /**
     * Turns the registry's broker of {@code config}, an H2 database, into Azure SQL Database as the adapter sees it.
     *
     * @param registry the resource adapter's registry
     * @param config the H2 database
     * @return the double, counting the XA calls made on it
     * @throws Exception if the registry cannot be changed
     */
    public static AzureSqlDatabaseDouble install(BrokerRegistry registry, DatabaseConfig config) throws Exception {
        AzureSqlDatabaseDouble d = new AzureSqlDatabaseDouble();
        BrokerRegistry.Entry h2 = registry.get(config);
        try (Connection c = h2.source().open(); Statement s = c.createStatement()) {
            s.execute("CREATE ALIAS IF NOT EXISTS SERVERPROPERTY FOR '" + AzureSqlDatabaseDouble.class.getName()
                    + ".serverProperty'");
            c.commit();
        }
        Broker broker = h2.broker();
        Broker azure = (Broker) Proxy.newProxyInstance(Broker.class.getClassLoader(), new Class<?>[] {Broker.class},
                (p, m, a) -> switch (m.getName()) {
                    case "platform" -> d.platform(h2);
                    case "xaResource" -> d.failingXa();
                    default -> {
                        try {
                            yield m.invoke(broker, a);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                });
        java.lang.reflect.Field f = BrokerRegistry.class.getDeclaredField("brokers");
        f.setAccessible(true);
        @SuppressWarnings("unchecked")
        Map<DatabaseConfig, BrokerRegistry.Entry> brokers = (Map<DatabaseConfig, BrokerRegistry.Entry>) f.get(registry);
        brokers.put(config, new BrokerRegistry.Entry(registry, h2.source(), azure));
        return d;
    }

    /** @return SERVERPROPERTY as Azure SQL Database answers it: EngineEdition 5 */
    public static Integer serverProperty(String property) {
        return "EngineEdition".equals(property) ? 5 : null;
    }

    private Platform platform(BrokerRegistry.Entry h2) throws SQLException {
        if (unanswered.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
            throw new SQLException("The TCP/IP connection to the host has failed (the double does not answer)",
                    "08S01");
        }
        try (Connection c = h2.source().open()) {
            Platform p = SqlServerBroker.platformOf(c);
            c.rollback();
            return p;
        }
    }

    private XAResource failingXa() {
        return (XAResource) Proxy.newProxyInstance(XAResource.class.getClassLoader(),
                new Class<?>[] {XAResource.class}, (p, m, a) -> switch (m.getName()) {
                    case "setTransactionTimeout" -> true;
                    case "getTransactionTimeout" -> 0;
                    case "isSameRM" -> a[0] == p;
                    case "hashCode" -> System.identityHashCode(p);
                    case "equals" -> a[0] == p;
                    case "toString" -> "XAResource of Azure SQL Database (no XA)";
                    default -> {
                        xaCalls.incrementAndGet();
                        XAException e = new XAException(XA_FAILURE);
                        e.errorCode = XAException.XAER_RMERR;
                        throw e;
                    }
                });
    }
}
