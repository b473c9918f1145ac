package org.ssbjca.adapter;

import org.ssbjca.brokers.BrokerRegistry;
import org.ssbjca.brokers.Config;
import org.ssbjca.brokers.MicroProfileValues;
import org.ssbjca.brokers.WorkManagerRunner;
import jakarta.resource.ResourceException;
import jakarta.resource.spi.ActivationSpec;
import jakarta.resource.spi.AuthenticationMechanism;
import jakarta.resource.spi.BootstrapContext;
import jakarta.resource.spi.ConfigProperty;
import jakarta.resource.spi.Connector;
import jakarta.resource.spi.ResourceAdapter;
import jakarta.resource.spi.ResourceAdapterInternalException;
import jakarta.resource.spi.TransactionSupport;
import jakarta.resource.spi.endpoint.MessageEndpointFactory;
import jakarta.resource.spi.work.WorkManager;
import jakarta.transaction.TransactionSynchronizationRegistry;
import org.jboss.jca.core.spi.statistics.Statistics;
import org.jboss.jca.core.spi.statistics.StatisticsPlugin;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import javax.transaction.xa.XAResource;
import org.ssbjca.backend.ConnectionSource;
import org.ssbjca.backend.DatabaseConfig;
import org.ssbjca.backend.portable.PortableOptions;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.ServiceBrokerActivationSpec;
import org.ssbjca.inbound.table.TableActivation;
import org.ssbjca.inbound.table.TableActivationSpec;
import org.ssbjca.brokers.AdapterContext;
import org.ssbjca.management.ManagedAdapter;
import org.ssbjca.management.Management;
import org.ssbjca.support.AdapterLog;
import org.ssbjca.support.BeanCaches;

/**
 * The ssb-jca resource adapter: SQL Server Service Broker (or the portable broker schema on PostgreSQL and H2) as a
 * Jakarta Connectors messaging provider. The properties set here are the defaults every connection factory and
 * every activation inherits unless it sets its own.
 */
@Connector(
        displayName = "ssb-jca",
        description = "SQL Server Service Broker resource adapter (portable broker schema on PostgreSQL and H2)",
        vendorName = "ssb-jca",
        eisType = "SQL Server Service Broker",
        version = "0.1.0",
        licenseDescription = "Apache License 2.0",
        transactionSupport = TransactionSupport.TransactionSupportLevel.XATransaction,
        authMechanisms = @AuthenticationMechanism(credentialInterface =
                AuthenticationMechanism.CredentialInterface.PasswordCredential),
        reauthenticationSupport = false)
public class ServiceBrokerResourceAdapter implements ResourceAdapter, AdapterContext, ManagedAdapter, Statistics {

    /** The default database: an H2 file in the server's data directory, created on first use. */
    public static final String DEFAULT_URL = Config.DEFAULT_URL;

    private static final AdapterLog LOG = AdapterLog.of(ServiceBrokerResourceAdapter.class);

    @ConfigProperty(description = "Default JDBC URL of the broker database: jdbc:sqlserver:, jdbc:postgresql: or "
            + "jdbc:h2:. ${system.property} and ${system.property:default} are expanded.",
            defaultValue = DEFAULT_URL)
    private String connectionUrl = DEFAULT_URL;

    @ConfigProperty(description = "Default database user")
    private String user;

    @ConfigProperty(description = "Default database password", confidential = true)
    private String password;

    /** The counters WildFly shows as the resource adapter's statistics and exports at /metrics. */
    private final AdapterStatistics statistics = new AdapterStatistics(this::activations, this::readings);

    /** The default database as resolved at start, MicroProfile Config included; null before. */
    private volatile DatabaseConfig resolvedDefault;

    @ConfigProperty(description = "Create the portable broker schema (H2, PostgreSQL) at first use when it is missing",
            defaultValue = "true")
    private Boolean createSchema = Boolean.TRUE;

    @ConfigProperty(description = "Portable backends: the longest a waiting RECEIVE sleeps before it looks at the "
            + "queue again without a wake-up signal, in milliseconds", defaultValue = "1000")
    private Long fallbackPollMillis = 1000L;

    private final Map<MessageEndpointFactory, EndpointActivation> activations = new ConcurrentHashMap<>();
    private final Map<MessageEndpointFactory, TableActivation> tableActivations = new ConcurrentHashMap<>();
    private volatile BrokerRegistry registry;
    private volatile WorkManager workManager;
    private volatile java.util.Timer timer;
    private volatile TransactionSynchronizationRegistry transactions;
    private volatile Management management;
    private volatile AutoCloseable transactionManagerRecovery;

    @Override
    public void start(BootstrapContext ctx) throws ResourceAdapterInternalException {
        if (fallbackPollMillis == null || fallbackPollMillis < 10 || fallbackPollMillis > 60_000) {
            throw new ResourceAdapterInternalException("fallbackPollMillis must be between 10 and 60000: "
                    + fallbackPollMillis);
        }
        try {
            resolvedDefault = null;
            resolvedDefault = withMicroProfileConfig(defaultDatabase());
        } catch (IllegalArgumentException e) {
            throw new ResourceAdapterInternalException("connectionUrl: " + e.getMessage(), e);
        }
        this.workManager = ctx.getWorkManager();
        this.transactions = ctx.getTransactionSynchronizationRegistry();
        this.registry = new BrokerRegistry(new WorkManagerRunner(workManager),
                new PortableOptions(fallbackPollMillis, 1000, java.time.Clock.systemUTC()),
                !Boolean.FALSE.equals(createSchema));
        this.transactionManagerRecovery = TransactionManagerRecovery.start(registry);
        this.management = Management.start(this);
        // last: the container calls no stop() after a start that failed, and the timer's thread would keep the RAR's
        // class loader
        this.timer = timer(ctx);
        LOG.started(defaultDatabase());
    }

    @Override
    public void stop() {
        Management m = management;
        if (m != null) {
            m.close();
        }
        activations.values().forEach(EndpointActivation::stop);
        activations.clear();
        tableActivations.values().forEach(TableActivation::stop);
        tableActivations.clear();
        java.util.Timer t = timer;
        if (t != null) {
            t.cancel();
            timer = null;
        }
        TransactionManagerRecovery.stop(transactionManagerRecovery);
        transactionManagerRecovery = null;
        BrokerRegistry r = registry;
        if (r != null) {
            r.close();
        }
        ConnectionSource.releaseDrivers();
        forgetBeanClasses();
        resolvedDefault = null;
        LOG.stopped();
    }

    /**
     * Drops the adapter's bean classes from the JDK's introspection caches, where WildFly's creation of a bean's
     * activation spec leaves them held by soft references that full collections do not clear: they kept every
     * undeployed RAR's class loader alive. (The connection factory's class is not introspected.)
     */
    private static void forgetBeanClasses() {
        BeanCaches.forget(List.of(ServiceBrokerResourceAdapter.class, ServiceBrokerActivationSpec.class,
                TableActivationSpec.class));
    }

    @Override
    public void endpointActivation(MessageEndpointFactory factory, ActivationSpec spec) throws ResourceException {
        if (spec instanceof TableActivationSpec tableActivationSpec) {
            spec.validate();
            TableActivation table = new TableActivation(this, factory, tableActivationSpec);
            tableActivations.put(factory, table);
            try {
                table.start();
            } catch (ResourceException | RuntimeException e) {
                tableActivations.remove(factory);
                table.stop();
                throw e;
            }
            if (management != null) {
                management.tableActivationStarted(table);
            }
            return;
        }
        if (!(spec instanceof ServiceBrokerActivationSpec s)) {
            throw new ResourceException("not an ssb-jca activation spec: " + spec);
        }
        s.validate();
        EndpointActivation activation = new EndpointActivation(this, factory, s);
        activations.put(factory, activation);
        try {
            activation.start();
        } catch (ResourceException | RuntimeException e) {
            activations.remove(factory); // the container does not deactivate what failed to activate
            activation.stop();
            throw e;
        }
        if (management != null) {
            management.activationStarted(activation);
        }
    }

    @Override
    public void endpointDeactivation(MessageEndpointFactory factory, ActivationSpec spec) {
        TableActivation table = tableActivations.remove(factory);
        if (table != null) {
            if (management != null) {
                management.tableActivationStopping(table);
            }
            table.stop();
            return;
        }
        EndpointActivation activation = activations.remove(factory);
        if (activation != null) {
            if (management != null) {
                management.activationStopping(activation);
            }
            activation.stop();
        }
    }

    @Override
    public XAResource[] getXAResources(ActivationSpec[] specs) throws ResourceException {
        List<XAResource> resources = new ArrayList<>();
        for (ActivationSpec spec : specs) {
            if (spec instanceof ServiceBrokerActivationSpec serviceBrokerActivationSpec) {
                resources.add(registry().get(serviceBrokerActivationSpec.database()).recoveryResource());
            } else if (spec instanceof TableActivationSpec tableActivationSpec) {
                resources.add(registry().get(tableActivationSpec.database()).recoveryResource());
            }
        }
        return resources.toArray(new XAResource[0]);
    }

    /**
     * @return the database named by this adapter's properties; once started, with what MicroProfile Config gave for
     *         the properties left unset ({@link MicroProfileValues})
     */
    @Override
    public DatabaseConfig defaultDatabase() {
        DatabaseConfig resolved = resolvedDefault;
        return resolved != null ? resolved : new DatabaseConfig(Config.expand(connectionUrl), user, password);
    }

    /**
     * The URL left at its default (the zero-setup H2 file), and a user or password not set, are read from
     * MicroProfile Config where the server has it; a property that is set always wins.
     */
    private DatabaseConfig withMicroProfileConfig(DatabaseConfig configured) {
        ClassLoader loader = ServiceBrokerResourceAdapter.class.getClassLoader();
        String url = configured.url();
        if (url.equals(Config.expand(DEFAULT_URL))) {
            url = MicroProfileValues.value(MicroProfileValues.URL, loader).map(Config::expand).orElse(url);
        }
        String u = Config.blankToNull(user) != null ? user
                : MicroProfileValues.value(MicroProfileValues.USER, loader).orElse(user);
        String p = Config.blankToNull(password) != null ? password
                : MicroProfileValues.value(MicroProfileValues.PASSWORD, loader).orElse(password);
        return new DatabaseConfig(url, u, p);
    }

    /** @return the brokers of this adapter; null before start */
    @Override
    public BrokerRegistry registry() {
        return registry;
    }

    /** @return the container's work manager; null before start */
    @Override
    public WorkManager workManager() {
        return workManager;
    }

    @Override
    public java.util.Timer timer() {
        return timer;
    }

    /** @return the container's timer, or null if it has none (the activations then never look at their readers) */
    private static java.util.Timer timer(BootstrapContext ctx) {
        try {
            return ctx.createTimer();
        } catch (jakarta.resource.spi.UnavailableException e) {
            return null;
        }
    }

    /** @return the key of the JTA transaction active on this thread, or null (none, or no registry) */
    @Override
    public Object transactionKey() {
        TransactionSynchronizationRegistry t = transactions;
        return t == null ? null : t.getTransactionKey();
    }

    /** @return whether the JTA transaction active on this thread is marked for rollback (false when there is none) */
    @Override
    public boolean transactionRollbackOnly() {
        TransactionSynchronizationRegistry t = transactions;
        try {
            return t != null && t.getTransactionKey() != null && t.getRollbackOnly();
        } catch (IllegalStateException noTransaction) {
            return false;
        }
    }

    @Override
    public void setTransactionRollbackOnly() {
        TransactionSynchronizationRegistry t = transactions;
        try {
            if (t != null && t.getTransactionKey() != null) {
                t.setRollbackOnly();
            }
        } catch (IllegalStateException noTransaction) {
            // it ended meanwhile: the reader's branch still votes to roll back
        }
    }

    /**
     * @return the adapter's counters for WildFly's management model ({@code statistics=extended} of the resource
     *         adapter configured in the {@code resource-adapters} subsystem) and its {@code /metrics}
     */
    @Override
    public StatisticsPlugin getStatistics() {
        return statistics;
    }

    private org.ssbjca.management.QueueReadings readings(EndpointActivation activation) {
        Management m = management;
        return m != null ? m.readings(activation) : new org.ssbjca.management.QueueReadings(activation);
    }

    /** @return the running activations */
    @Override
    public List<EndpointActivation> activations() {
        return List.copyOf(activations.values());
    }

    /**
     * Returns the running table activation of that bean, or null when it has none.
     *
     * @param factory a bean's endpoint factory
     */
    public TableActivation tableActivation(MessageEndpointFactory factory) {
        return tableActivations.get(factory);
    }

    /** Returns the default JDBC URL. */
    public String getConnectionUrl() {
        return connectionUrl;
    }

    /** Sets {@code connectionUrl}: the default JDBC URL. */
    public void setConnectionUrl(String connectionUrl) {
        this.connectionUrl = connectionUrl;
        this.resolvedDefault = null;
    }

    /** Returns the default user. */
    public String getUser() {
        return user;
    }

    /** Sets {@code user}: the default user. */
    public void setUser(String user) {
        this.user = user;
        this.resolvedDefault = null;
    }

    /** Returns the default password. */
    public String getPassword() {
        return password;
    }

    /** Sets {@code password}: the default password. */
    public void setPassword(String password) {
        this.password = password;
        this.resolvedDefault = null;
    }

    /** Returns whether to create the portable schema when missing. */
    public Boolean getCreateSchema() {
        return createSchema;
    }

    /** Sets {@code createSchema}: whether to create the portable schema when missing. */
    public void setCreateSchema(Boolean createSchema) {
        this.createSchema = createSchema;
    }

    /** Returns the fallback poll interval of the portable backends, in milliseconds. */
    public Long getFallbackPollMillis() {
        return fallbackPollMillis;
    }

    /** Sets {@code fallbackPollMillis}: the fallback poll interval of the portable backends, in milliseconds. */
    public void setFallbackPollMillis(Long fallbackPollMillis) {
        this.fallbackPollMillis = fallbackPollMillis;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof ServiceBrokerResourceAdapter r)) {
            return false;
        }
        return Objects.equals(connectionUrl, r.connectionUrl) && Objects.equals(user, r.user)
                && Objects.equals(password, r.password) && Objects.equals(createSchema, r.createSchema)
                && Objects.equals(fallbackPollMillis, r.fallbackPollMillis);
    }

    @Override
    public int hashCode() {
        return Objects.hash(connectionUrl, user, createSchema, fallbackPollMillis);
    }
}
