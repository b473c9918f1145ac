package org.ssbjca.management;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import javax.management.InstanceAlreadyExistsException;
import javax.management.InstanceNotFoundException;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.ssbjca.support.AdapterLog;

/**
 * The MBeans one adapter instance registered, by owner (the adapter, an activation), so that each is unregistered
 * exactly once and none is left behind. A name already taken (a second adapter in the JVM, two beans of the same
 * simple name on one queue) gets {@code ,instance=n} rather than failing.
 */
final class MBeans {

    private static final AdapterLog LOG = AdapterLog.of(MBeans.class);
    private static final int MAX_INSTANCES = 100;

    private final MBeanServer server;
    private final Map<Object, ObjectName> names = new ConcurrentHashMap<>();

    MBeans(MBeanServer server) {
        this.server = server;
    }

    /**
     * Returns the name it got, or null when it could not be registered (logged).
     *
     * @param owner what the MBean stands for
     * @param mbean the MBean
     * @param preferred its name, if free
     */
    ObjectName register(Object owner, Object mbean, ObjectName preferred) {
        ObjectName name = preferred;
        for (int instance = 2; instance <= MAX_INSTANCES + 1; instance++) {
            try {
                ObjectName registered = server.registerMBean(mbean, name).getObjectName();
                names.put(owner, registered);
                return registered;
            } catch (InstanceAlreadyExistsException taken) {
                name = ObjectNames.withInstance(preferred, instance);
            } catch (JMException | RuntimeException e) {
                LOG.mbeanNotRegistered(e, name);
                return null;
            }
        }
        LOG.mbeanNameTaken(preferred, MAX_INSTANCES);
        return null;
    }

    /**
     * Returns its name, or null when it has none.
     *
     * @param owner what an MBean stands for
     */
    ObjectName nameOf(Object owner) {
        return names.get(owner);
    }

    /** @param owner what an MBean stands for; nothing happens when it has none */
    void unregister(Object owner) {
        ObjectName name = names.remove(owner);
        if (name == null) {
            return;
        }
        try {
            server.unregisterMBean(name);
        } catch (InstanceNotFoundException gone) {
            LOG.mbeanAlreadyUnregistered(name);
        } catch (JMException | RuntimeException e) {
            LOG.mbeanNotUnregistered(e, name);
        }
    }

    /** Unregisters every MBean still registered. */
    void unregisterAll() {
        names.keySet().forEach(this::unregister);
    }
}
