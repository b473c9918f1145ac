package org.ssbjca.monitoring;

import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MBeanServerFactory;
import javax.management.ObjectName;
import org.ssbjca.management.ActivationMXBean;
import org.ssbjca.management.ObjectNames;
import org.ssbjca.management.ResourceAdapterMXBean;
import org.ssbjca.management.TableActivationMXBean;

/**
 * The adapter as the monitoring WAR sees it, on an MBean server of the test's own: fake MXBeans under the names the
 * adapter registers its own under ({@link ObjectNames}).
 */
final class FakeAdapter {

    private final MBeanServer server = MBeanServerFactory.newMBeanServer();

    /** @return the WAR's view of this server */
    AdapterMBeans mbeans() {
        return new AdapterMBeans(server);
    }

    /** Registers the resource adapter's MBean: the adapter runs. */
    FakeAdapter start() throws JMException {
        FakeMXBean.of(ResourceAdapterMXBean.class).set("Version", "test").register(server,
                ObjectNames.resourceAdapter());
        return this;
    }

    /** Unregisters the resource adapter's MBean: the adapter stopped. */
    void stop() throws JMException {
        server.unregisterMBean(ObjectNames.resourceAdapter());
    }

    /**
     * Registers an activation's MBean as the adapter does, {@code Name} and {@code Queue} set, and its one reader
     * ({@code MaxReaders}, the activation property's default).
     *
     * @param bean the bean's name
     * @param queue its queue
     * @return the MBean, to set its other attributes
     */
    FakeMXBean<ActivationMXBean> activation(String bean, String queue) throws JMException {
        FakeMXBean<ActivationMXBean> activation = FakeMXBean.of(ActivationMXBean.class)
                .set("Name", bean + "@" + queue).set("Queue", queue).set("MaxReaders", 1);
        activation.register(server, ObjectNames.activation(bean + "@" + queue));
        return activation;
    }

    /**
     * Registers a table activation's MBean as the adapter does, {@code Table} set, and its one reader
     * ({@code ReaderCount}).
     *
     * @param bean the bean's name
     * @param table its table
     * @return the MBean, to set its other attributes
     */
    FakeMXBean<TableActivationMXBean> tableActivation(String bean, String table) throws JMException {
        FakeMXBean<TableActivationMXBean> activation = FakeMXBean.of(TableActivationMXBean.class).set("Table", table)
                .set("ReaderCount", 1);
        activation.register(server, ObjectNames.tableActivation(bean + "@" + table));
        return activation;
    }

    /**
     * Registers a second activation of the same name, as the adapter does for a second bean of one simple name on one
     * queue: {@code ,instance=2}.
     */
    FakeMXBean<ActivationMXBean> secondActivation(String bean, String queue) throws JMException {
        FakeMXBean<ActivationMXBean> activation = FakeMXBean.of(ActivationMXBean.class)
                .set("Name", bean + "@" + queue).set("Queue", queue);
        activation.register(server, new ObjectName(ObjectNames.activation(bean + "@" + queue).getCanonicalName()
                + ",instance=2"));
        return activation;
    }

    /** Unregisters an activation's MBean (its bean undeployed). */
    void undeploy(String bean, String queue) throws JMException {
        server.unregisterMBean(ObjectNames.activation(bean + "@" + queue));
    }

    /** Unregisters a table activation's MBean (its bean undeployed). */
    void undeployTable(String bean, String table) throws JMException {
        server.unregisterMBean(ObjectNames.tableActivation(bean + "@" + table));
    }
}
