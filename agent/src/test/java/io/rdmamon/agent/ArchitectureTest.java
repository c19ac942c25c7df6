package io.rdmamon.agent;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.rdmamon.protocol.testing.ArchitectureRules;
import io.rdmamon.protocol.testing.ArchitectureRules.Module;

/**
 * The agent's packages import each other one way only, and the agent uses the protocol and the native bindings,
 * never the collector or the command line (README.md "Source layout").
 */
@AnalyzeClasses(packages = "io.rdmamon.agent", importOptions = ImportOption.DoNotIncludeTests.class)
class ArchitectureTest {
    @ArchTest
    static final ArchRule packagesImportOneWay = ArchitectureRules.packagesFreeOfCycles(Module.AGENT);

    @ArchTest
    static final ArchRule usesOnlyItsModules = ArchitectureRules.usesOnlyItsModules(Module.AGENT);

    /** The tests' classes, which the rules above leave out, are imported apart. */
    @ArchTest
    static void testsUseOnlyItsModules(JavaClasses mainClasses) {
        ArchitectureRules.checkTestsUseOnlyItsModules(Module.AGENT);
    }
}
