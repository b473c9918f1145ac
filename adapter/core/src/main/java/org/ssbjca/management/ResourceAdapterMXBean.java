package org.ssbjca.management;

import java.util.List;
import javax.management.ObjectName;

/**
 * The resource adapter, {@code org.ssbjca:type=ResourceAdapter}: what it is and what it runs. Read-only.
 */
public interface ResourceAdapterMXBean {

    /** Returns the adapter's version. */
    String getVersion();

    /** Returns the adapter's default database (JDBC URL and user, passwords masked). */
    String getDefaultDatabase();

    /** Returns the broker databases in use by connection factories and activations, passwords masked. */
    List<BackendInfo> getBackends();

    /** Returns the names of the running activations ({@code Bean@queue}). */
    List<String> getActivations();

    /** Returns the JMX names of the running activations' MBeans. */
    List<ObjectName> getActivationObjectNames();
}
