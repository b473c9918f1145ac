package org.ssbjca.management;

import java.util.List;
import javax.management.ObjectName;

/**
 * The resource adapter, {@code org.ssbjca:type=ResourceAdapter}: what it is and what it runs. Read-only.
 */
public interface ResourceAdapterMXBean {

    /** @return the adapter's version */
    String getVersion();

    /** @return the adapter's default database (JDBC URL and user, passwords masked) */
    String getDefaultDatabase();

    /** @return the broker databases in use by connection factories and activations, passwords masked */
    List<BackendInfo> getBackends();

    /** @return the names of the running activations ({@code Bean@queue}) */
    List<String> getActivations();

    /** @return the JMX names of the running activations' MBeans */
    List<ObjectName> getActivationObjectNames();
}
