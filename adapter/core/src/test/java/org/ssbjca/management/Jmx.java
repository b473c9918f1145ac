package org.ssbjca.management;

import static org.junit.jupiter.api.Assertions.fail;

import java.lang.management.ManagementFactory;
import javax.management.JMX;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.ssbjca.inbound.EndpointActivation;
import org.ssbjca.inbound.InboundHarness;

/** What the management tests share: the platform MBean server, proxies as a JMX client makes them. */
final class Jmx {

    static final MBeanServer SERVER = ManagementFactory.getPlatformMBeanServer();

    private Jmx() {
    }

    /** @return the only activation of the harness's adapter */
    static EndpointActivation onlyActivation(InboundHarness h) {
        if (h.ra.activations().size() != 1) {
            fail("expected one activation, found " + h.ra.activations());
        }
        return h.ra.activations().get(0);
    }

    /** @return a client-side proxy of the activation's MBean, found by its documented name */
    static ActivationMXBean proxy(EndpointActivation a) {
        return JMX.newMXBeanProxy(SERVER, ObjectNames.activation(a.name()), ActivationMXBean.class, true);
    }

    /** @return the MBeans of the adapter's domain now registered */
    static java.util.Set<ObjectName> registered() {
        try {
            return SERVER.queryNames(new ObjectName(ObjectNames.DOMAIN + ":*"), null);
        } catch (javax.management.MalformedObjectNameException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Waits up to 30 s for a condition; generous, since the build may share its cores with others. */
}
