package org.ssbjca.outbound;

import jakarta.resource.ResourceException;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.ConnectionDefinition;
import jakarta.resource.spi.ConnectionManager;
import jakarta.resource.spi.ConnectionRequestInfo;
import jakarta.resource.spi.InvalidPropertyException;
import jakarta.resource.spi.ManagedConnection;
import jakarta.resource.spi.ManagedConnectionFactory;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterAssociation;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.ValidatingManagedConnectionFactory;
import java.io.PrintWriter;
import java.sql.SQLException;
import java.util.HashSet;
import java.util.Objects;
import java.util.Set;
import javax.security.auth.Subject;
import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.brokers.Config;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.api.ServiceBrokerConnection;
import org.ssbjca.api.ServiceBrokerConnectionFactory;
import org.ssbjca.backend.DatabaseConfig;

/**
 * Makes the physical connections behind {@link ServiceBrokerConnectionFactory}: one XA connection to the broker
 * database per managed connection. The container pools them and enlists them in JTA transactions.
 */
@ConnectionDefinition(
        connectionFactory = ServiceBrokerConnectionFactory.class,
        connectionFactoryImpl = ServiceBrokerConnectionFactoryImpl.class,
        connection = ServiceBrokerConnection.class,
        connectionImpl = ConnectionHandle.class)
public class ServiceBrokerManagedConnectionFactory implements ManagedConnectionFactory,
        ValidatingManagedConnectionFactory, ResourceAdapterAssociation, TransactionSupport {

    private static final long serialVersionUID = 1L;

    @ConfigProperty(description = "JDBC URL of the broker database; default: the resource adapter's connectionUrl")
    private String connectionUrl;
    @ConfigProperty(description = "Database user; default: the resource adapter's user")
    private String user;
    @ConfigProperty(description = "Database password; default: the resource adapter's password", confidential = true)
    private String password;

    /** {@link #setValidationIntervalMillis}'s default, as HikariCP's alive-bypass window. */
    static final int DEFAULT_VALIDATION_INTERVAL_MILLIS = 500;
    private static final int MAX_VALIDATION_INTERVAL_MILLIS = 60_000;

    @ConfigProperty(description = "The pool's validation asks the database whether a connection still works before "
            + "handing it out, except for a connection that committed less than this many ms ago; 0: every time "
            + "(0 to 60000)", defaultValue = "500")
    private Integer validationIntervalMillis = DEFAULT_VALIDATION_INTERVAL_MILLIS;

    /** When a connection of this factory last found the database gone ({@link System#nanoTime}), if ever. */
    private transient volatile long databaseLostAt;
    private transient volatile boolean databaseLost;

    private transient ResourceAdapter ra;
    private transient PrintWriter logWriter;

    @Override
    public Object createConnectionFactory(ConnectionManager cm) throws ResourceException {
        return new ServiceBrokerConnectionFactoryImpl(this, cm);
    }

    @Override
    public Object createConnectionFactory() throws ResourceException {
        throw new ResourceException("ssb-jca connection factories need a container connection manager (JCA managed "
                + "environment)");
    }

    @Override
    public ManagedConnection createManagedConnection(Subject subject, ConnectionRequestInfo info)
            throws ResourceException {
        BrokerRegistry.Entry entry = entry();
        try {
            entry.prepareSchema();
            return new ServiceBrokerManagedConnection(this, entry);
        } catch (SQLException e) {
            databaseLost();
            throw new ResourceException("cannot connect to " + entry.source().config() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public ManagedConnection matchManagedConnections(Set connections, Subject subject, ConnectionRequestInfo info) {
        for (Object o : connections) {
            if (o instanceof ServiceBrokerManagedConnection mc) {
                if (mc.factory().equals(this) && mc.isUsable()) {
                    return mc;
                }
            }
        }
        return null;
    }

    /**
     * The pool's validation ({@code <validate-on-match>} or {@code <background-validation>} in
     * {@code ironjacamar.xml}): the connections that are broken or on which the database no longer answers, for
     * instance after a database restart.
     */
    @Override
    public Set<ManagedConnection> getInvalidConnections(Set connections) {
        Set<ManagedConnection> invalid = new HashSet<>();
        for (Object o : connections) {
            if (o instanceof ServiceBrokerManagedConnection mc && !mc.isValid()) {
                invalid.add(mc);
            }
        }
        return invalid;
    }

    /**
     * Returns the database this factory connects to: its own connection properties, each blank one taken from the
     * resource adapter's.
     *
     * @throws InvalidPropertyException naming connectionUrl when the URL is not supported
     */
    public DatabaseConfig database() throws InvalidPropertyException {
        try {
            return Config.database(connectionUrl, user, password, ra == null ? null : resourceAdapter());
        } catch (IllegalArgumentException e) {
            throw new InvalidPropertyException("ssb-jca connection factory property 'connectionUrl' " + e.getMessage());
        }
    }

    BrokerRegistry.Entry entry() throws ResourceException {
        if (ra == null || resourceAdapter().registry() == null) {
            throw new ResourceException("the ssb-jca resource adapter is not started");
        }
        return resourceAdapter().registry().get(database());
    }

    AdapterContext resourceAdapter() {
        return (AdapterContext) ra;
    }

    @Override
    public TransactionSupport.TransactionSupportLevel getTransactionSupport() {
        return TransactionSupport.TransactionSupportLevel.XATransaction;
    }

    @Override
    public ResourceAdapter getResourceAdapter() {
        return ra;
    }

    @Override
    public void setResourceAdapter(ResourceAdapter ra) throws ResourceException {
        if (!(ra instanceof AdapterContext)) {
            throw new ResourceException("not the ssb-jca resource adapter: " + ra);
        }
        this.ra = ra;
        database();
        if (validationIntervalMillis == null || validationIntervalMillis < 0
                || validationIntervalMillis > MAX_VALIDATION_INTERVAL_MILLIS) {
            throw new InvalidPropertyException("ssb-jca connection factory property 'validationIntervalMillis' must be "
                    + "0 to " + MAX_VALIDATION_INTERVAL_MILLIS + " (ms): " + validationIntervalMillis);
        }
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        this.logWriter = out;
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    /** Returns the JDBC URL of the broker database; null or blank for the resource adapter's. */
    public String getConnectionUrl() {
        return connectionUrl;
    }

    /** Sets the JDBC URL of the broker database; null or blank: the resource adapter's. */
    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
    }

    /** Returns the database user; null or blank for the resource adapter's. */
    public String getUser() {
        return user;
    }

    /** Sets the database user; null or blank: the resource adapter's. */
    public void setUser(String user) {
        this.user = user;
    }

    /** Returns the database password; null or blank for the resource adapter's. */
    public String getPassword() {
        return password;
    }

    /** Sets the database password; null or blank: the resource adapter's. */
    public void setPassword(String password) {
        this.password = password;
    }

    /** Returns the time in ms after a commit during which the pool's validation skips its round trip. */
    public Integer getValidationIntervalMillis() {
        return validationIntervalMillis;
    }

    /**
     * The pool's validation ({@code validate-on-match}) costs a round trip each time a connection is handed out. A
     * connection that committed a transaction less than this many ms ago is handed out without it: the database
     * answered on it just now. A database restart within that time is then found by the next call, which fails and
     * discards the connection, unless a connection of this factory met the outage before (a failed call, check or
     * connect): then every connection is checked again. 0: checked every time.
     *
     * @param validationIntervalMillis 0 to 60000; default 500
     */
    public void setValidationIntervalMillis(Integer validationIntervalMillis) {
        this.validationIntervalMillis = validationIntervalMillis;
    }

    /** A connection of this factory found the database gone: every connection is checked again before its next use. */
    void databaseLost() {
        databaseLostAt = System.nanoTime();
        databaseLost = true;
    }

    /**
     * Tells whether the pool's validation may skip its round trip for a connection that committed at a given time.
     *
     * @param committedAt when a connection last committed ({@link System#nanoTime})
     * @return whether the pool may hand it out without asking the database: it committed less than
     *         {@link #getValidationIntervalMillis} ago, and no connection of this factory found the database gone since
     */
    boolean skipsValidation(long committedAt) {
        Integer millis = validationIntervalMillis;
        long interval = millis == null ? 0 : java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(millis);
        return System.nanoTime() - committedAt < interval && !(databaseLost && committedAt - databaseLostAt <= 0);
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ServiceBrokerManagedConnectionFactory f)) {
            return false;
        }
        return Objects.equals(connectionUrl, f.connectionUrl) && Objects.equals(user, f.user)
                && Objects.equals(password, f.password) && Objects.equals(ra, f.ra);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connectionUrl, user);
    }
}
