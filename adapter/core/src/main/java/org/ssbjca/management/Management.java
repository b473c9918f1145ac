package org.ssbjca.management;

import java.lang.management.ManagementFactory;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.ActivationEvents;
import org.ssbjca.support.AdapterLog;

/**
 * The adapter's JMX presence, the one class the adapter calls: the resource adapter's MBean from {@link #start} to
 * {@link #close()}, and an MBean per activation from {@link #activationStarted} to {@link #activationStopping}. A
 * failure to register is logged and never stops the adapter.
 */
public final class Management implements AutoCloseable {

    private static final AdapterLog LOG = AdapterLog.of(Management.class);

    private final MBeans mbeans;
    private final Object adapterKey = new Object();
    private final java.util.Map<EndpointActivation, ActivationManagement> activations =
            new java.util.concurrent.ConcurrentHashMap<>();

    private org.ssbjca.backend.BackgroundRunner runner = org.ssbjca.backend.BackgroundRunner.daemonThreads();

    private Management(MBeanServer server) {
        this.mbeans = new MBeans(server);
    }

    /**
     * Registers {@code org.ssbjca:type=ResourceAdapter} on the platform MBean server.
     *
     * @param ra the started adapter
     * @return the adapter's management, to close when it stops
     */
    public static Management start(ManagedAdapter ra) {
        return start(ra, ManagementFactory.getPlatformMBeanServer());
    }

    /**
     * Returns the adapter's management, to close when it stops.
     *
     * @param ra the started adapter
     * @param server the MBean server to register on
     */
    static Management start(ManagedAdapter ra, MBeanServer server) {
        Management m = new Management(server);
        if (ra.workManager() != null) {
            m.runner = new org.ssbjca.brokers.WorkManagerRunner(ra.workManager());
        }
        ObjectName name = m.mbeans.register(m.adapterKey, new ResourceAdapterManagement(ra, m.mbeans),
                ObjectNames.resourceAdapter());
        if (name != null) {
            LOG.mbeanRegistered(name);
        }
        return m;
    }

    /**
     * Registers the activation's MBean and makes it the activation's event listener.
     *
     * @param activation a started activation
     */
    public void activationStarted(EndpointActivation activation) {
        ActivationManagement mbean = new ActivationManagement(activation, runner);
        activations.put(activation, mbean);
        ObjectName name = mbeans.register(activation, mbean, ObjectNames.activation(activation.name()));
        if (name != null) {
            mbean.notifications().source(name);
            activation.setEvents(mbean.notifications());
            LOG.mbeanRegistered(name);
        }
    }

    /**
     * Unregisters the activation's MBean, before the activation stops.
     *
     * @param activation an activation being deactivated
     */
    public void activationStopping(EndpointActivation activation) {
        activation.setEvents(ActivationEvents.NONE);
        activations.remove(activation);
        mbeans.unregister(activation);
    }

    /**
     * Registers a table activation's MBean ({@code org.ssbjca:type=TableActivation,name=Bean@table}).
     *
     * @param activation a started table activation
     */
    public void tableActivationStarted(org.ssbjca.inbound.table.TableActivation activation) {
        ObjectName name = mbeans.register(activation, new TableActivationManagement(activation, runner),
                ObjectNames.tableActivation(activation.name()));
        if (name != null) {
            LOG.mbeanRegistered(name);
        }
    }

    /**
     * Unregisters a table activation's MBean, before the activation stops.
     *
     * @param activation a table activation being deactivated
     */
    public void tableActivationStopping(org.ssbjca.inbound.table.TableActivation activation) {
        mbeans.unregister(activation);
    }

    /**
     * Returns its queue and database readings (those its MBean shows, kept a few seconds), or a reading of its own when
     * it has no MBean.
     *
     * @param activation an activation
     */
    public QueueReadings readings(EndpointActivation activation) {
        ActivationManagement mbean = activations.get(activation);
        return mbean != null ? mbean.readings() : new QueueReadings(activation);
    }

    /**
     * Returns the name of its MBean, or null when it has none.
     *
     * @param activation an activation
     */
    public ObjectName nameOf(EndpointActivation activation) {
        return mbeans.nameOf(activation);
    }

    /** Unregisters every MBean of the adapter, the activations' included. */
    @Override
    public void close() {
        mbeans.unregisterAll();
    }
}
