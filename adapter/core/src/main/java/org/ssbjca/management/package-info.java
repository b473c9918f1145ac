/**
 * JMX management of the resource adapter: MXBeans under the {@code org.ssbjca} domain on the platform MBean server,
 * registered while the adapter and each activation run.
 *
 * <ul>
 *   <li>{@code org.ssbjca:type=ResourceAdapter}: {@link org.ssbjca.management.ResourceAdapterMXBean};</li>
 *   <li>{@code org.ssbjca:type=Activation,name=<Bean>@<queue>}: {@link org.ssbjca.management.ActivationMXBean}, one
 *       per message-driven bean, with live settings, counters, the queue as an operator sees it, operations, and
 *       notifications ({@link org.ssbjca.management.ActivationNotifications}).</li>
 * </ul>
 *
 * <p>Every attribute, parameter and result is of an open type (numbers, strings, dates, {@code CompositeData} and
 * arrays of them), and operations fail with JDK exceptions only, so that JConsole, jshell or any JMX client sees and
 * uses everything without the adapter's classes. {@link org.ssbjca.management.Management} is the single entry point
 * the adapter calls; a failure to register never fails a deployment.
 */
package org.ssbjca.management;
