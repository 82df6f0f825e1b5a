$MGSIM import autotvm configs/measured/mali-t860/autotvm/mali_v0.06.log
