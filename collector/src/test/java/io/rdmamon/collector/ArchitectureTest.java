package io.rdmamon.collector;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmamon.protocol.testing.ArchitectureRules;
import io.rdmamon.protocol.testing.ArchitectureRules.Module;

/**
 * The collector's packages import each other one way only (the root package, which wires them, on top), and the
 * collector uses the protocol, never the agent, the native bindings or the command line (README.md "Source
 * layout").
 */
@AnalyzeClasses(packages = "io.rdmamon.collector", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule packagesImportOneWay = ArchitectureRules.packagesFreeOfCycles(Module.COLLECTOR);

    @ArchTest
    static final ArchRule usesOnlyItsModules = ArchitectureRules.usesOnlyItsModules(Module.COLLECTOR);

    /** The tests' classes, which the rules above leave out, are imported apart. */
    @ArchTest
    static void testsUseOnlyItsModules(JavaClasses mainClasses) {
        ArchitectureRules.checkTestsUseOnlyItsModules(Module.COLLECTOR);
    }
}
