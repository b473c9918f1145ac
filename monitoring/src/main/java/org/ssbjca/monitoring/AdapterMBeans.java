package org.ssbjca.monitoring;

import java.lang.management.ManagementFactory;
import java.util.Set;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;

/**
 * The adapter's MXBeans on the server's platform MBean server, read by name with open types only: this WAR shares no
 * class with the adapter, so it shows exactly what JMX shows and survives the adapter's redeployment.
 */
final class AdapterMBeans {

    /** The adapter's MBean, registered while it runs. */
    static final ObjectName RESOURCE_ADAPTER = name("org.ssbjca:type=ResourceAdapter");

    /** Every activation's MBean. */
    static final ObjectName ACTIVATIONS = name("org.ssbjca:type=Activation,*");

    /** Every table activation's MBean. */
    static final ObjectName TABLE_ACTIVATIONS = name("org.ssbjca:type=TableActivation,*");

    private final MBeanServer server;

    AdapterMBeans() {
        this(ManagementFactory.getPlatformMBeanServer());
    }

    AdapterMBeans(MBeanServer server) {
        this.server = server;
    }

    MBeanServer server() {
        return server;
    }

    /** @return whether the adapter runs */
    boolean adapterRunning() {
        return server.isRegistered(RESOURCE_ADAPTER);
    }

    /** @return the activations' MBean names now */
    Set<ObjectName> activations() {
        return server.queryNames(ACTIVATIONS, null);
    }

    /** @return the table activations' MBean names now */
    Set<ObjectName> tableActivations() {
        return server.queryNames(TABLE_ACTIVATIONS, null);
    }

    /**
     * @param name an MBean
     * @param attribute one of its attributes
     * @return its value, or null when the MBean is gone or the attribute cannot be read (a database down)
     */
    Object get(ObjectName name, String attribute) {
        try {
            return server.getAttribute(name, attribute);
        } catch (JMException | RuntimeException e) {
            return null;
        }
    }

    /**
     * @param name an MBean
     * @param attribute a numeric or boolean attribute
     * @return its value as a double (true is 1), NaN when it cannot be read
     */
    double number(ObjectName name, String attribute) {
        Object value = get(name, attribute);
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        if (value instanceof Boolean b) {
            return b ? 1 : 0;
        }
        return Double.NaN;
    }

    /** @return the string value, or null */
    String text(ObjectName name, String attribute) {
        Object value = get(name, attribute);
        return value == null ? null : value.toString();
    }

    /**
     * @param activation an activation's MBean
     * @return its {@code Bean@queue} or {@code Bean@table}, as its {@code name} key holds it (unquoted), with
     *     {@code #n} for the n-th bean of that name ({@code ,instance=n}), so that each has series of its own
     */
    static String activationName(ObjectName activation) {
        String name = activation.getKeyProperty("name");
        String bean = name == null ? "" : name.startsWith("\"") ? ObjectName.unquote(name) : name;
        String instance = activation.getKeyProperty("instance");
        return instance == null ? bean : bean + "#" + instance;
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }
}
