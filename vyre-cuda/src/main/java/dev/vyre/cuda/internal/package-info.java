/** What the CUDA packages share and no caller of vyre-cuda should use: not exported by the module. */
package dev.vyre.cuda.internal;
